// What a push notification carries to a config made by a client of another version than the handlers' (a 0.3 client,
// through the translation): that version's `pushBody` trait says. 0.3 POSTs the Task object (0.3 §9.5, "Task object is
// sent as JSON payload"), so such a config gets the task as it is when the update is delivered, translated down by the
// generated codecs, as `application/json`; a version whose body is the update itself gets the StreamResponse.

import { variant } from '../agent/task-events.js';
import type { TaskManager } from '../agent/task-manager.js';
import type { StreamResponse } from '../generated/1.0/index.js';
import { isVersion } from '../generated/versions.js';
import { TRANSLATED, VERSION_TRAITS } from '../version-data.js';
import { PUSH_MEDIA_TYPE, type PushPayload } from './deliver.js';
import type { StoredConfig } from './push-records.js';

/** The payload maker of an agent's outbox: `entry`'s version's body for `event`. */
export function pushPayloads(manager: TaskManager) {
  return async (entry: StoredConfig, event: StreamResponse): Promise<PushPayload> => {
    const version = entry.version;
    const translation = version !== undefined && isVersion(version) ? TRANSLATED[version] : undefined;
    if (version === undefined || !isVersion(version) || !translation)
      return { body: JSON.stringify(event), mediaType: PUSH_MEDIA_TYPE };
    const traits = VERSION_TRAITS[version];
    if (traits.pushBody === 'streamResponse')
      return { body: JSON.stringify(event), mediaType: traits.pushMediaType };
    // The task now, as the SDKs send it (it may be past `event`: a later artifact may be in it), with the status the
    // update tells when it tells one, so each status update reads as that state, the last one as the task ended.
    const now = await manager.anyTenant(entry.config.taskId);
    const told = variant(event).statusUpdate?.status;
    const task = told ? { ...now, status: told } : now;
    return {
      body: JSON.stringify(translation.translator.codec('Task').down(task)),
      mediaType: traits.pushMediaType,
    };
  };
}
