#!/usr/bin/env node
// The agentproto command as published: the packages' JavaScript in dist/.
const { runCli } = await import('../dist/index.js');
process.exitCode = await runCli(process.argv.slice(2));
