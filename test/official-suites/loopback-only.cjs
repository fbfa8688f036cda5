// Preloaded (node --require) into a server this project did not write and whose listen() takes no host: a listen on a
// bare port binds 127.0.0.1 instead of every interface, and the address it got is printed on stderr as
// "agentproto-test: listening on http://127.0.0.1:<port>" (PORT=0 gives a free port).
const net = require('node:net');

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const [port] = args;
  if (typeof port !== 'number' && !(typeof port === 'string' && /^\d+$/.test(port)))
    return listen.apply(this, args);
  this.once('listening', () => {
    process.stderr.write(`agentproto-test: listening on http://127.0.0.1:${this.address().port}\n`);
  });
  return listen.call(
    this,
    Number(port),
    '127.0.0.1',
    ...args.slice(1).filter((a) => typeof a === 'function'),
  );
};
