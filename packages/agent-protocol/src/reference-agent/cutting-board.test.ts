import { describe, expect, it } from 'vitest';
import { illTyped, stringAt } from '../../../../test/support/typed.js';
import * as base from '../generated/v1/index.js';
import * as extended from '../generated/v1-awaiting-input/index.js';
import { createCuttingBoardAgent, cuttingBoardStep } from './cutting-board.js';
import { createReferenceHandlers } from './handlers.js';
import { TaskStore } from './store.js';

describe('awaiting_input extension > on', () => {
  it('dialogue > the agent asks, the next step answers, the order is placed', async () => {
    const app = createCuttingBoardAgent();
    const client = extended.createAgentProtocolClient({
      baseUrl: 'http://localhost',
      fetch: async (r) => app.fetch(r),
    });
    const task = await client.createAgentTask({
      body: { input: 'Please buy me a new set of cutting boards' },
    });
    const taskId = task.data?.task_id ?? '';
    const ask = await client.executeAgentTaskStep({ params: { path: { task_id: taskId } }, body: {} });
    expect(ask.data).toMatchObject({
      status: 'awaiting_input',
      output: 'Would you like wooden or plastic cutting boards?',
      is_last: false,
    });
    const unanswered = await client.executeAgentTaskStep({ params: { path: { task_id: taskId } }, body: {} });
    expect(unanswered.response.status).toBe(422);
    const order = await client.executeAgentTaskStep({
      params: { path: { task_id: taskId } },
      body: { input: 'I like wood' },
    });
    expect(order.data).toMatchObject({
      status: 'completed',
      input: 'I like wood',
      is_last: true,
      output: 'Ordered a set of wooden cutting boards.',
    });
    const steps = await client.listAgentTaskSteps({ params: { path: { task_id: taskId } } });
    expect(steps.data?.steps.map((s) => s.status)).toEqual(['awaiting_input', 'completed']);
  });
});

describe('awaiting_input extension > off', () => {
  it('stub > base v1 refuses to send an awaiting_input step: the answer breaks its schema', async () => {
    const store = new TaskStore();
    const errors: unknown[] = [];
    const app = base.createAgentProtocolApp(
      { ...createReferenceHandlers(store), executeAgentTaskStep: illTyped(cuttingBoardStep(store)) },
      { onError: (e) => errors.push(e) },
    );
    const created = await app.request('/ap/v1/agent/tasks', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"input":"cutting boards"}',
    });
    const taskId = stringAt(await created.json(), 'task_id');
    const res = await app.request(`/ap/v1/agent/tasks/${taskId}/steps`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ errors: [{ pointer: '/status' }] });
    expect(errors).toHaveLength(1);
  });

  it('validators > base v1 rejects the new status; the extension accepts it', () => {
    const step = {
      task_id: 't',
      step_id: 's',
      status: 'awaiting_input',
      output: 'Wooden or plastic?',
      artifacts: [],
      is_last: false,
    };
    expect(base.validators.Step(step)).toBe(false);
    expect(extended.validators.Step(step)).toBe(true);
    expect(base.validators.StepStatus('completed')).toBe(true);
  });
});
