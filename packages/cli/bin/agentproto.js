#!/usr/bin/env node
// The agentproto command. The packages ship TypeScript sources; tsx loads them.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/index.ts');
process.exitCode = await runCli(process.argv.slice(2));
