// The kit's one error for what its caller got wrong (an unknown protocol, bad options, a base URL that is a route),
// so a caller catches one class and turns it into its own usage error (the CLI: exit code 2).
import { RegistryLookupError, resolveSuite } from '@agentproto/registry';

/** A protocol or version the kit does not know, or bad options: a usage error (exit code 2). */
export class ConformanceUsageError extends Error {
  override name = 'ConformanceUsageError';
}

/** The registry's {@link resolveSuite}, its lookup errors told as the kit's usage errors. */
export async function suiteOf(spec: string): ReturnType<typeof resolveSuite> {
  try {
    return await resolveSuite(spec);
  } catch (error) {
    if (error instanceof RegistryLookupError)
      throw new ConformanceUsageError(error.message, { cause: error });
    throw error;
  }
}
