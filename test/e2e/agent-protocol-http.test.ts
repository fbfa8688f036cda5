// The reference agent over real HTTP on 127.0.0.1 (port 0), driven by the generated typed client.

import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { type AgentProtocolClient, createAgentProtocolClient } from '@agentproto/agent-protocol';
import { startReferenceAgent } from '@agentproto/agent-protocol/reference-agent/serve';
import { runConformance } from '@agentproto/conformance';
import type { ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/spec-files.js';

let server: ServerType;
let client: AgentProtocolClient;
let url: string;

beforeAll(async () => {
  ({ server, url } = await startReferenceAgent(0));
  client = createAgentProtocolClient({ baseUrl: url });
});
afterAll(() => {
  server.close();
});

describe('e2e > agent-protocol v1 over HTTP', () => {
  it('typed client > a full task: create, steps until is_last, upload, list, download', async () => {
    const created = await client.createAgentTask({
      body: { input: 'Washington', additional_input: { run: 1 } },
    });
    expect(created.response.status).toBe(200);
    const taskId = created.data?.task_id ?? '';
    let last = false;
    let steps = 0;
    while (!last && steps < 10) {
      const step = await client.executeAgentTaskStep({
        params: { path: { task_id: taskId } },
        body: { input: 'go' },
      });
      expect(step.response.status).toBe(200);
      last = step.data?.is_last ?? false;
      steps++;
    }
    expect(last).toBe(true);

    const upload = await client.uploadAgentTaskArtifacts({
      params: { path: { task_id: taskId } },
      body: { file: new File(['uploaded'], 'in.txt') },
    });
    expect(upload.data).toMatchObject({ file_name: 'in.txt', agent_created: false });

    const page = await client.listAgentTaskArtifacts({
      params: { path: { task_id: taskId }, query: { page_size: 1, current_page: 2 } },
    });
    expect(page.data?.pagination).toEqual({ total_items: 2, total_pages: 2, current_page: 2, page_size: 1 });
    const id = page.data?.artifacts[0]?.artifact_id ?? '';
    const bytes = await client.downloadAgentTaskArtifact({
      params: { path: { task_id: taskId, artifact_id: id } },
    });
    expect(await bytes.data?.text()).toBe('uploaded');

    const listed = await client.listAgentTaskSteps({ params: { path: { task_id: taskId } } });
    expect(listed.data?.steps).toHaveLength(steps);
    const one = await client.getAgentTaskStep({
      params: { path: { task_id: taskId, step_id: listed.data?.steps[0]?.step_id ?? '' } },
    });
    expect(one.data?.status).toBe('completed');
    const tasks = await client.listAgentTasks();
    expect(tasks.data?.tasks.map((t) => t.task_id)).toContain(taskId);
  });

  it('typed client > 404 arrives as a typed error body', async () => {
    const res = await client.getAgentTask({ params: { path: { task_id: 'missing' } } });
    expect(res.response.status).toBe(404);
    expect(res.error).toEqual({ message: 'no task with id "missing"' });
  });

  it('raw HTTP > malformed JSON is 400 and an unknown route 404', async () => {
    const bad = await fetch(`${url}/ap/v1/agent/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toBe('application/problem+json');
    expect((await fetch(`${url}/nowhere`)).status).toBe(404);
  });
});

describe('e2e > the cutting board over HTTP', () => {
  const serve = path.join(ROOT, 'packages/agent-protocol/src/reference-agent/serve.ts');
  const { AGENT_STORE: _store, ...env } = process.env;

  it('start --agent cutting-board > the script serves the awaiting_input dialogue, and the kit drives it', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', serve, '--port', '0', '--agent', 'cutting-board'],
      {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      // The script prints its URL once it listens; 30 s is far more than it takes.
      const listening = new Promise<string>((resolve, reject) => {
        let seen = '';
        child.stdout.on('data', (d: Buffer) => {
          seen += d;
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
          if (m?.[1]) resolve(m[1]);
        });
        child.on('exit', (code) => reject(new Error(`the agent exited with ${code}: ${seen}`)));
        setTimeout(() => reject(new Error(`the agent did not start: ${seen}`)), 30_000).unref();
      });
      const base = await listening;
      const report = await runConformance({ protocol: 'agent-protocol@v1-awaiting-input', target: base });
      const dialogue = report.checks.filter((c) => c.id.startsWith('ap.awaiting.'));
      expect(dialogue.map((c) => [c.id, c.status])).toEqual([
        ['ap.awaiting.ask', 'pass'],
        ['ap.awaiting.answer-required', 'pass'],
        ['ap.awaiting.answer', 'pass'],
      ]);
      expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
    } finally {
      child.kill();
    }
  }, 60_000);

  it('start --agent with a name it does not know > exit 2, naming the agents', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', serve, '--agent', 'nope'], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--agent must be one of reference, cutting-board, not "nope"/);
  }, 60_000);
});
