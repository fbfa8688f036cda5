// Versions (specification §3.6.2): a request for a version the agent does not serve is VersionNotSupportedError.
import { type BindingChecks, type BindingSpec, SPEC } from './bindings.js';
import { UNKNOWN_TASK } from './tasks.js';

/** The version check of one binding. */
export const versionDefinitions = ({ prefix, name }: BindingSpec) => [
  {
    id: `a2a.${prefix}.version`,
    level: 'MUST' as const,
    title: `${name}: an unsupported A2A-Version is VersionNotSupportedError`,
    ref: `${SPEC} §3.6.2, §5.4`,
    covers: ['version.unsupported'],
  },
];

/** Asks for a task in a version no agent serves. */
export async function versionChecks({ check }: BindingChecks): Promise<void> {
  await check('version', async (b) => {
    const x = await b.call('GetTask', { id: UNKNOWN_TASK }, { 'A2A-Version': '99.0' });
    b.expectError(x, 'VERSION_NOT_SUPPORTED');
    return undefined;
  });
}
