import { describe, expect, it } from 'vitest';
import { parseServeArgs, type ServeArgsSpec } from './serve-args.js';

const spec: ServeArgsSpec<'version' | 'store', 'standalone'> = {
  port: 8090,
  strings: { version: { choices: ['0.1', '1.1'] }, store: { value: '<spec>' } },
  flags: ['standalone'],
};

const accepted: Array<[string, { given: string[]; env?: Record<string, string>; want: unknown }]> = [
  [
    'defaults > the spec port, no values',
    { given: [], want: { port: 8090, strings: {}, flags: { standalone: false } } },
  ],
  ['pnpm passes -- on > a leading -- is dropped', { given: ['--', '--port', '0'], want: { port: 0 } }],
  ['without -- > the same', { given: ['--port', '0'], want: { port: 0 } }],
  ['--port=N > the inline form', { given: ['--port=9000'], want: { port: 9000 } }],
  ['PORT > when --port is not given', { given: [], env: { PORT: '3001' }, want: { port: 3001 } }],
  ['--port > wins over PORT', { given: ['--port', '0'], env: { PORT: '3001' }, want: { port: 0 } }],
  [
    'choices > a listed value',
    {
      given: ['--', '--version', '0.1', '--store', 'sqlite:./a.db'],
      want: { strings: { version: '0.1', store: 'sqlite:./a.db' } },
    },
  ],
  ['flags > present', { given: ['--standalone'], want: { flags: { standalone: true } } }],
];

const refused: Array<[string, { given: string[]; env?: Record<string, string>; want: RegExp }]> = [
  [
    'unknown option > named, with the options',
    {
      given: ['--', '--prot', '1'],
      want: /^unknown option --prot \(options: --port <n>, --version 0\.1\|1\.1, --store <spec>, --standalone\)$/,
    },
  ],
  [
    'a second -- > a positional, refused',
    { given: ['--', '--', '--port', '1'], want: /^unexpected argument "--port"/ },
  ],
  ['positional > refused', { given: ['serve'], want: /^unexpected argument "serve"/ }],
  ['missing value > named', { given: ['--version'], want: /^--version needs a value/ }],
  ['flag with a value > refused', { given: ['--standalone=yes'], want: /^--standalone takes no value/ }],
  [
    'version not listed > refused naming the known ones, not mapped to a default',
    { given: ['--version', '0.3'], want: /^--version must be one of 0\.1, 1\.1, not "0\.3"/ },
  ],
  [
    'port not a number',
    { given: ['--port', 'abc'], want: /^--port must be a port number 0–65535, not "abc"/ },
  ],
  ['port out of range', { given: ['--port', '65536'], want: /^--port must be a port number/ }],
  ['port negative', { given: ['--port=-1'], want: /^--port must be a port number/ }],
  [
    'PORT not a number > names PORT',
    { given: [], env: { PORT: '80a' }, want: /^PORT must be a port number 0–65535, not "80a"/ },
  ],
];

describe('parseServeArgs', () => {
  it.each(accepted)('%s', (_, { given, env, want }) => {
    expect(parseServeArgs(given, spec, env ?? {})).toMatchObject(want as object);
  });
  it.each(refused)('%s', (_, { given, env, want }) => {
    expect(() => parseServeArgs(given, spec, env ?? {})).toThrow(want);
  });
});
