import { ReferenceAgentOptionError } from '@agentproto/runtime';
import { describe, expect, it } from 'vitest';
import { referenceAgentFor } from './serve.js';

describe('reference agent > --extended-card-token', () => {
  it('declared as data, with its value', () => {
    expect(referenceAgentFor('1.0').options?.['extended-card-token']).toMatchObject({ value: '<token>' });
  });
  it('the agent it starts serves the extended card to that token only, as the banner says', async () => {
    const agent = referenceAgentFor('1.0');
    const started = await agent.start({ port: 0, values: { 'extended-card-token': ['open-sesame'] } });
    try {
      expect(started.banner).toContain('extended card:');
      const ask = (token?: string) =>
        fetch(`${started.url}/extendedAgentCard`, {
          headers: { 'A2A-Version': '1.0', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        });
      expect((await ask()).status).toBe(401);
      const res = await ask('open-sesame');
      expect(res.status).toBe(200);
      expect((await res.json()).skills).toHaveLength(2);
    } finally {
      await started.close();
    }
  });
  it('an empty token is a usage error', async () => {
    await expect(
      referenceAgentFor('1.0').start({ port: 0, values: { 'extended-card-token': [' '] } }),
    ).rejects.toBeInstanceOf(ReferenceAgentOptionError);
  });
});
