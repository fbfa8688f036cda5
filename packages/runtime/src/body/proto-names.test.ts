import { describe, expect, it } from 'vitest';
import { type ProtoNameNode, readProtoNames, readProtoQuery } from './proto-names.js';

// A tree that contains itself (a node whose `children` are nodes) and a map whose values are messages.
const nodes: readonly ProtoNameNode[] = [
  {
    fields: { nodeId: -1, children: 1, byName: 2, extra: -1 },
    protoNames: { node_id: 'nodeId', by_name: 'byName' },
  },
  { items: 0 },
  { values: 0 },
];
const names = { nodes, root: 0 };

describe('readProtoNames', () => {
  it('follows arrays and map values, renaming fields but never map keys or undeclared members', () => {
    const value = {
      node_id: 'a',
      children: [{ node_id: 'b', children: [{ node_id: 'c' }] }],
      by_name: { some_key: { node_id: 'd' } },
      extra: { node_id: 'free-form' },
    };
    expect(readProtoNames(value, names)).toBeUndefined();
    expect(value).toEqual({
      nodeId: 'a',
      children: [{ nodeId: 'b', children: [{ nodeId: 'c' }] }],
      byName: { some_key: { nodeId: 'd' } },
      extra: { node_id: 'free-form' },
    });
  });

  it('names the first field given twice by its pointer, in JSON names', () => {
    const value = { children: [{}, { byName: { 'a/b': { nodeId: 'x', node_id: 'y' } } }] };
    expect(readProtoNames(value, names)).toEqual({
      pointer: '/children/1/byName/a~1b/nodeId',
      jsonName: 'nodeId',
      protoName: 'node_id',
    });
  });

  it('leaves scalars, nulls and values of the wrong kind alone (the schema refuses them)', () => {
    for (const value of [null, 1, 'x', []]) expect(readProtoNames(value, names)).toBeUndefined();
    const value = { children: 'no', by_name: [{ node_id: 1 }] };
    expect(readProtoNames(value, names)).toBeUndefined();
    expect(value).toEqual({ children: 'no', byName: [{ node_id: 1 }] });
  });

  it('a key of Object.prototype is never taken for a field', () => {
    const value = JSON.parse('{"constructor": 1, "__proto__": {"node_id": 2}, "toString": "x"}');
    expect(readProtoNames(value, names)).toBeUndefined();
    expect(Object.keys(value)).toEqual(['constructor', '__proto__', 'toString']);
  });
});

describe('readProtoQuery', () => {
  it('renames proto names and refuses a parameter given under both', () => {
    const query: Record<string, string> = { page_size: '5', other: 'x' };
    expect(readProtoQuery(query, { page_size: 'pageSize' })).toBeUndefined();
    expect(query).toEqual({ other: 'x', pageSize: '5' });
    expect(readProtoQuery({ page_size: '5', pageSize: '6' }, { page_size: 'pageSize' })).toMatchObject({
      pointer: '/pageSize',
    });
  });
});
