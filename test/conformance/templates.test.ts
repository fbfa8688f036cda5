// What `agentproto new` writes passes the kit, schema-driven checks included: each project template's agent (real
// TypeScript in its protocol's package) against its version's suite, in memory. The slow stage runs the same test
// inside each generated project, installed from packed tarballs.
import { knownProtocols, resolveBinding, runConformance } from '@agentproto/conformance';
import { describe, expect, it } from 'vitest';

type App = { fetch: (r: Request) => Response | Promise<Response> };
const templated: Array<[string, URL]> = [];
for (const p of knownProtocols())
  for (const { version } of p.versions) {
    const template = (await resolveBinding(`${p.protocol}@${version}`)).template;
    if (template) templated.push([`${p.protocol}@${version}`, new URL('agent.ts', template.dir)]);
  }

describe('conformance > project templates', () => {
  it('coverage > every protocol version has a template', () => {
    expect(templated.length).toBe(knownProtocols().flatMap((p) => p.versions).length);
  });

  it.each(templated)(
    '%s > passes every MUST and SHOULD check and 200 schema-driven requests',
    async (protocol, file) => {
      // sound: every template's agent module exports its Hono app as `app`, which its start script serves.
      const { app } = (await import(file.href)) as { app: App };
      const report = await runConformance({
        protocol,
        target: app,
        timeoutMs: 3_000,
        fuzz: { requests: 200, seed: 1 },
      });
      const failed = report.checks.filter((c) => c.status === 'fail' && c.level !== 'MAY');
      expect(failed, JSON.stringify(failed, null, 2)).toEqual([]);
      expect(report.checks.filter((c) => c.id.includes('.fuzz.')).map((c) => c.status)).toEqual([
        'pass',
        'pass',
        'pass',
      ]);
    },
  );
});
