// The options every binding shares, with their defaults in one place: whether answers are checked, who hears of
// failures, the request limits, and whether streams go straight to the Node response.
import { type RequestLimits, resolveLimits } from '../limits.js';

/** The shared options as a binding's factory takes them (each may be left out). */
export interface BindingOptionsGiven {
  /** Check every answer against what the protocol declares (default: on unless NODE_ENV is `production`). */
  validate?: boolean | undefined;
  /** Told of a failure, with the operation or method it happened in (default: console.error). */
  onError?: ((error: unknown, where: string) => void) | undefined;
  limits?: Partial<RequestLimits> | undefined;
  /** Write streams straight to the Node response on `@hono/node-server` (default: on). */
  nodeStreams?: boolean | undefined;
}

/** The shared options, resolved. */
export interface BindingOptions {
  validate: boolean;
  onError: (error: unknown, where: string) => void;
  limits: RequestLimits;
  nodeStreams: boolean;
}

/** The given options with their defaults; throws, as the factory must at start, for a limit that is not valid. */
export function resolveBindingOptions(given: BindingOptionsGiven): BindingOptions {
  return {
    validate: given.validate ?? process.env.NODE_ENV !== 'production',
    onError: given.onError ?? ((error, where) => console.error(`[${where}]`, error)),
    limits: resolveLimits(given.limits),
    nodeStreams: given.nodeStreams ?? true,
  };
}
