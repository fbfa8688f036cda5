import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_LIMITS } from '../limits.js';
import { resolveBindingOptions } from './options.js';

describe('resolveBindingOptions', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('defaults > answers checked outside production, default limits, node streams on', () => {
    vi.stubEnv('NODE_ENV', 'development');
    const got = resolveBindingOptions({});
    expect(got).toMatchObject({ validate: true, limits: DEFAULT_LIMITS, nodeStreams: true });
  });

  it('defaults > production does not check answers', () => {
    vi.stubEnv('NODE_ENV', 'production');
    expect(resolveBindingOptions({}).validate).toBe(false);
  });

  it('given > each option given wins, one limit at a time', () => {
    const onError = () => {};
    const got = resolveBindingOptions({
      validate: false,
      onError,
      limits: { jsonBytes: 10 },
      nodeStreams: false,
    });
    expect(got).toEqual({
      validate: false,
      onError,
      limits: { ...DEFAULT_LIMITS, jsonBytes: 10 },
      nodeStreams: false,
    });
  });

  it('limits > a limit that is not a positive whole number is refused at start', () => {
    expect(() => resolveBindingOptions({ limits: { depth: 0 } })).toThrow(/limits\.depth/);
  });
});
