// The check of a client message's parts against the media types the agent's card says it takes. Kept apart because
// it reads only the card and the message, not the task.
import { A2aError } from '../errors/a2a-error.js';
import type { Message } from '../generated/1.0/index.js';

/**
 * CONTENT_TYPE_NOT_SUPPORTED for a part whose media type `accepted` (the card's input modes) leaves out; a part
 * without a media type counts as text/plain (text) or application/json (data).
 */
export function checkContent(accepted: readonly string[], message: Message): void {
  if (accepted.includes('*/*')) return;
  for (const part of message.parts) {
    const type =
      part.mediaType ?? ('text' in part ? 'text/plain' : 'data' in part ? 'application/json' : undefined);
    if (type && !accepted.some((a) => a === type || (a.endsWith('/*') && type.startsWith(a.slice(0, -1)))))
      throw new A2aError(
        'CONTENT_TYPE_NOT_SUPPORTED',
        `this agent takes ${accepted.join(', ')}, not ${type}`,
        {
          mediaType: type,
        },
      );
  }
}
