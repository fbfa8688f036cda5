import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { record } from '../../../../test/support/typed.js';
import { compileTranslation, type TranslationTable } from './translate.js';

// A small table in the shape of A2A 0.3 → 1.0: a `kind`-discriminated part union whose file member moves its fields,
// an enum, a constant only the old side has, a derived flag, a boxed value and a wrapped stream union.
const TABLE: TranslationTable = {
  from: 'old',
  to: 'new',
  enums: {
    Role: { user: 'ROLE_USER', agent: 'ROLE_AGENT' },
    State: { done: 'STATE_DONE', busy: 'STATE_BUSY' },
  },
  types: {
    Part: {
      by: 'kind',
      cases: {
        text: { when: ['text'] },
        file: {
          when: ['raw', 'url'],
          fields: {
            'file/bytes': { move: 'raw' },
            'file/uri': { move: 'url' },
            'file/mimeType': { move: 'mediaType' },
          },
        },
        data: { when: ['data'], fields: { data: { box: { key: 'value', flag: 'metadata/boxed' } } } },
      },
    },
    Message: { fields: { kind: { const: 'message' }, role: { enum: 'Role' }, parts: { items: 'Part' } } },
    Status: { fields: { state: { enum: 'State' }, message: { type: 'Message' } } },
    Update: {
      fields: {
        kind: { const: 'update' },
        status: { type: 'Status' },
        final: { derive: { from: 'status/state', in: ['done'] } },
      },
    },
    Send: { fields: { blocking: { negate: true, move: 'returnImmediately' } } },
    Event: {
      by: 'kind',
      cases: {
        message: { type: 'Message', wrap: 'message' },
        update: { type: 'Update', wrap: 'statusUpdate' },
      },
    },
    State: { enum: 'State' },
    Named: { fields: { items: { values: 'Part' } } },
    Auth: { fields: { schemes: { one: true, move: 'scheme' } } },
    ProtoSend: { fields: { blocking: { negate: true, move: 'returnImmediately', default: false } } },
    Parts: { list: { items: 'Part', at: 'parts' } },
    Config: { fields: { name: { template: 'tasks/{taskId}/configs/{id}' } } },
    Hook: { fields: { auth: { type: 'Auth', move: 'authentication', emptyIsAbsent: true } } },
    GetConfig: {
      fields: {
        id: { move: 'taskId' },
        configId: { move: 'id', orFrom: 'id' },
        'meta/owner': { orFrom: 'id' },
      },
    },
    ProtoPart: {
      cases: {
        text: { has: ['text'], when: ['text'] },
        file: { has: ['file'], when: ['url'], fields: { 'file/uri': { move: 'url' } } },
      },
    },
  },
  methods: {},
  operations: {},
};

const t = compileTranslation(TABLE);

describe('compileTranslation', () => {
  it.each([
    [
      'part > text loses its kind',
      { type: 'Part', given: { kind: 'text', text: 'hi' }, want: { text: 'hi' } },
    ],
    [
      'part > file fields move to the root',
      {
        type: 'Part',
        given: { kind: 'file', file: { bytes: 'AA==', mimeType: 'image/png' }, metadata: { a: 1 } },
        want: { raw: 'AA==', mediaType: 'image/png', metadata: { a: 1 } },
      },
    ],
    [
      'part > a field the table does not name is kept where it is',
      {
        type: 'Part',
        given: { kind: 'file', file: { uri: 'https://x/y', extra: true } },
        want: { url: 'https://x/y', file: { extra: true } },
      },
    ],
    [
      'message > enum, constant and items',
      {
        type: 'Message',
        given: { kind: 'message', role: 'user', parts: [{ kind: 'text', text: 'a' }], messageId: 'm' },
        want: { role: 'ROLE_USER', parts: [{ text: 'a' }], messageId: 'm' },
      },
    ],
    [
      'update > the derived flag is dropped going up',
      {
        type: 'Update',
        given: { kind: 'update', status: { state: 'done' }, final: true, taskId: 't' },
        want: { status: { state: 'STATE_DONE' }, taskId: 't' },
      },
    ],
    [
      'config > a negated boolean moves',
      { type: 'Send', given: { blocking: true }, want: { returnImmediately: false } },
    ],
    [
      'event > a union member is wrapped',
      {
        type: 'Event',
        given: { kind: 'update', status: { state: 'busy' }, final: false },
        want: { statusUpdate: { status: { state: 'STATE_BUSY' } } },
      },
    ],
    ['enum type > a scalar', { type: 'State', given: 'done', want: 'STATE_DONE' }],
    ['enum > a value the table lacks passes', { type: 'State', given: 'later', want: 'later' }],
    ['wrong shape > a string for an object passes', { type: 'Message', given: 'x', want: 'x' }],
    [
      'wrong shape > an unknown kind passes',
      { type: 'Part', given: { kind: 'video' }, want: { kind: 'video' } },
    ],
    [
      'data > a flagged box is opened and the flag dropped',
      {
        type: 'Part',
        given: { kind: 'data', data: { value: 3 }, metadata: { boxed: true } },
        want: { data: 3 },
      },
    ],
    [
      'values > a map of parts',
      {
        type: 'Named',
        given: { items: { a: { kind: 'text', text: 'x' } } },
        want: { items: { a: { text: 'x' } } },
      },
    ],
    [
      'one > the first item of a list',
      { type: 'Auth', given: { schemes: ['Bearer', 'Basic'] }, want: { scheme: 'Bearer' } },
    ],
    [
      'list > an array becomes an object holding it',
      { type: 'Parts', given: [{ kind: 'text', text: 'x' }], want: { parts: [{ text: 'x' }] } },
    ],
    [
      'template > a resource name read into fields',
      {
        type: 'Config',
        given: { name: 'tasks/t1/configs/c1', url: 'u' },
        want: { taskId: 't1', id: 'c1', url: 'u' },
      },
    ],
    [
      'template > a name that does not fit stays',
      { type: 'Config', given: { name: 'task/t1' }, want: { name: 'task/t1' } },
    ],
    [
      'has > a union told apart by member',
      { type: 'ProtoPart', given: { file: { uri: 'u' } }, want: { url: 'u' } },
    ],
    [
      'default > an absent bool is false: not blocking',
      { type: 'ProtoSend', given: {}, want: { returnImmediately: true } },
    ],
    [
      'default > a value equal to the default is left out',
      { type: 'ProtoSend', given: { blocking: true }, want: {} },
    ],
  ])('up > %s', (_name, { type, given, want }) => {
    expect(t.codec(type).up(given)).toEqual(want);
  });

  it.each([
    [
      'update > the derived flag is computed from the translated state',
      {
        type: 'Update',
        given: { status: { state: 'STATE_DONE' }, taskId: 't' },
        want: { kind: 'update', status: { state: 'done' }, taskId: 't', final: true },
      },
    ],
    [
      'event > the member is picked by its wrapper',
      {
        type: 'Event',
        given: { message: { role: 'ROLE_AGENT', parts: [{ url: 'u' }] } },
        want: { kind: 'message', role: 'agent', parts: [{ kind: 'file', file: { uri: 'u' } }] },
      },
    ],
    [
      'data > a value that is not an object is boxed and flagged',
      {
        type: 'Part',
        given: { data: [1, 2], metadata: { a: 1 } },
        want: { kind: 'data', data: { value: [1, 2] }, metadata: { a: 1, boxed: true } },
      },
    ],
    [
      'message > a stale constant is replaced',
      {
        type: 'Message',
        given: { kind: 'other', role: 'ROLE_USER' },
        want: { kind: 'message', role: 'user' },
      },
    ],
    ['one > a list of one', { type: 'Auth', given: { scheme: 'Bearer' }, want: { schemes: ['Bearer'] } }],
    [
      'list > the array out of its object',
      { type: 'Parts', given: { parts: [{ text: 'x' }], next: '' }, want: [{ kind: 'text', text: 'x' }] },
    ],
    [
      'template > a resource name written from fields',
      { type: 'Config', given: { taskId: 't1', id: 'c1' }, want: { name: 'tasks/t1/configs/c1' } },
    ],
    [
      'has > a union member picked by `when`',
      { type: 'ProtoPart', given: { url: 'u' }, want: { file: { uri: 'u' } } },
    ],
    ['default > absent on the other side too', { type: 'ProtoSend', given: {}, want: { blocking: true } }],
  ])('down > %s', (_name, { type, given, want }) => {
    expect(t.codec(type).down(given)).toEqual(want);
  });

  it('input > is never written, either way', () => {
    const given = { data: 5, metadata: { a: 1 } };
    const frozen = structuredClone(given);
    t.codec('Part').down(given);
    expect(given).toEqual(frozen);
    const old = { kind: 'file', file: { bytes: 'AA==', name: 'n' }, metadata: { boxed: false } };
    const copy = structuredClone(old);
    t.codec('Part').up(old);
    expect(old).toEqual(copy);
  });

  it('input > a `__proto__` key is data, kept both ways', () => {
    const m = JSON.parse('{"kind":"message","role":"user","parts":[],"__proto__":{"x":1}}');
    const up = record(t.codec('Message').up(m));
    expect(Object.hasOwn(up, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(up)).toBe(Object.prototype);
    expect(t.codec('Message').down(up)).toEqual(m);
  });

  it('emptyIsAbsent > an empty object goes up as absent; one with members crosses; down is unchanged', () => {
    const hook = t.codec('Hook');
    expect(hook.up({ url: 'u', auth: {} })).toEqual({ url: 'u' });
    expect(hook.up({ url: 'u', auth: { schemes: ['Bearer'] } })).toEqual({
      url: 'u',
      authentication: { scheme: 'Bearer' },
    });
    // Not an object, or an empty list: not an empty object, so it crosses for the other side's validators to judge.
    expect(hook.up({ url: 'u', auth: [] })).toEqual({ url: 'u', authentication: [] });
    expect(hook.down({ url: 'u' })).toEqual({ url: 'u' });
    expect(hook.down({ url: 'u', authentication: {} })).toEqual({ url: 'u', auth: {} });
  });

  it('orFrom > an absent value goes up read from another path; a present one (null too) wins; down is unchanged', () => {
    const get = t.codec('GetConfig');
    expect(get.up({ id: 't1' })).toEqual({ taskId: 't1', id: 't1', meta: { owner: 't1' } });
    expect(get.up({ id: 't1', configId: 'c1', meta: { owner: 'o' } })).toEqual({
      taskId: 't1',
      id: 'c1',
      meta: { owner: 'o' },
    });
    expect(get.up({ id: 't1', configId: null })).toEqual({ taskId: 't1', id: null, meta: { owner: 't1' } });
    // Nothing to read it from: still absent.
    expect(get.up({})).toEqual({});
    expect(get.down({ taskId: 't1', id: 'c1' })).toEqual({ id: 't1', configId: 'c1' });
  });

  it('unknown type > is a programming error, named', () => {
    expect(() => t.codec('Nope')).toThrow(/no rule for type Nope/);
  });

  it('round trip > every old message the table covers comes back as it was', () => {
    const text = fc.record({ kind: fc.constant('text'), text: fc.string() });
    const file = fc.record({
      kind: fc.constant('file'),
      file: fc.oneof(
        fc.record({ bytes: fc.base64String(), mimeType: fc.string() }, { requiredKeys: ['bytes'] }),
        fc.record({ uri: fc.webUrl(), mimeType: fc.string() }, { requiredKeys: ['uri'] }),
      ),
    });
    const data = fc.record({ kind: fc.constant('data'), data: fc.dictionary(fc.string(), fc.jsonValue()) });
    const message = fc.record({
      kind: fc.constant('message'),
      role: fc.constantFrom('user', 'agent'),
      parts: fc.array(fc.oneof(text, file, data), { maxLength: 4 }),
      messageId: fc.string(),
    });
    fc.assert(
      fc.property(message, (m) => {
        const codec = t.codec('Message');
        expect(codec.down(codec.up(m))).toEqual(m);
      }),
      { seed: 1, numRuns: 300 },
    );
  });
});
