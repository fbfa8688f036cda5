// The outbound policy: which addresses are not public, which URLs are refused when given, which connections are
// refused when made (a name resolving elsewhere than it did), and a POST that never follows a redirect.
import { createServer, type Server } from 'node:http';
import { type AddressInfo, type LookupFunction, Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  blockedAddressKind,
  checkOutboundUrl,
  guardedLookup,
  OutboundRefusedError,
} from './outbound-policy.js';
import { outboundAgents, postOutbound } from './outbound-request.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

/**
 * A server on 127.0.0.1 answering `status` (and `location` when given), except to `hold`, which it never answers; it
 * counts what it got by path.
 */
async function serve(status: number, location?: string, hold?: string) {
  const got: string[] = [];
  const server = createServer((req, res) => {
    got.push(req.url ?? '');
    req.resume();
    if (req.url === hold) return;
    res.writeHead(status, location ? { location } : {}).end('answer');
  });
  servers.push(server);
  const connections = { count: 0 };
  server.on('connection', () => connections.count++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // sound: a server listening on a TCP port reports an AddressInfo.
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, port, got, connections };
}

describe('outbound policy > addresses', () => {
  const cases: Array<[string, { given: string; want: string | undefined }]> = [
    ['loopback', { given: '127.0.0.1', want: 'loopback' }],
    ['loopback, anywhere in 127/8', { given: '127.9.9.9', want: 'loopback' }],
    ['IPv6 loopback', { given: '::1', want: 'loopback' }],
    ['IPv4-mapped loopback', { given: '::ffff:127.0.0.1', want: 'loopback' }],
    ['IPv4-mapped, hex', { given: '::ffff:7f00:1', want: 'loopback' }],
    ['private 10/8', { given: '10.0.0.1', want: 'private' }],
    ['private 172.16/12', { given: '172.31.255.1', want: 'private' }],
    ['private 192.168/16', { given: '192.168.1.1', want: 'private' }],
    ['link-local', { given: '169.254.1.1', want: 'link-local' }],
    ['the metadata address', { given: '169.254.169.254', want: 'metadata' }],
    ['IPv6 metadata', { given: 'fd00:ec2::254', want: 'metadata' }],
    ['unique-local', { given: 'fd12:3456::1', want: 'unique-local' }],
    ['IPv6 link-local', { given: 'fe80::1', want: 'link-local' }],
    ['unspecified', { given: '0.0.0.0', want: 'unspecified' }],
    ['carrier-grade NAT', { given: '100.64.0.1', want: 'shared' }],
    ['multicast', { given: '224.0.0.1', want: 'multicast' }],
    ['bracketed', { given: '[::1]', want: 'loopback' }],
    ['not an address', { given: 'example.com', want: 'reserved' }],
    ['public IPv4', { given: '93.184.216.34', want: undefined }],
    ['public IPv6', { given: '2606:2800:220:1::1', want: undefined }],
    ['just outside 172.16/12', { given: '172.32.0.1', want: undefined }],
  ];
  it.each(cases)('%s', (_, { given, want }) => expect(blockedAddressKind(given)).toBe(want));
});

describe('outbound policy > URLs when given', () => {
  const resolve = async (host: string) => (host === 'inside.test' ? ['10.0.0.7'] : ['93.184.216.34']);
  const refused: Array<[string, { given: string; want: RegExp }]> = [
    ['not a URL', { given: 'nope', want: /not an absolute URL/ }],
    ['a file URL', { given: 'file:///etc/passwd', want: /only http and https/ }],
    ['credentials in the URL', { given: 'http://u:p@example.com/', want: /user name or password/ }],
    ['loopback literal', { given: 'http://127.0.0.1:8080/', want: /loopback/ }],
    ['decimal loopback', { given: 'http://2130706433/', want: /loopback/ }],
    ['localhost', { given: 'http://localhost/', want: /loopback name/ }],
    [
      'a name resolving inside',
      { given: 'http://inside.test/', want: /inside\.test \(10\.0\.0\.7\) is a private/ },
    ],
  ];
  it.each(refused)('refused > %s', async (_, { given, want }) => {
    const error = await checkOutboundUrl(given, { resolve }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundRefusedError);
    expect(String(error)).toMatch(want);
  });
  it('taken > a public name, and an allowed host whatever it is', async () => {
    expect((await checkOutboundUrl('https://hooks.example.com/x', { resolve })).host).toBe(
      'hooks.example.com',
    );
    expect((await checkOutboundUrl('http://127.0.0.1:9/', { allowHosts: ['127.0.0.1'] })).port).toBe('9');
    expect((await checkOutboundUrl('http://[::1]:9/', { allowHosts: ['[::1]'] })).port).toBe('9');
    expect(
      (await checkOutboundUrl('http://INSIDE.test/', { resolve, allowHosts: ['inside.test'] })).host,
    ).toBe('inside.test');
  });
  it('an allowed address does not open names resolving to it', async () => {
    await expect(
      checkOutboundUrl('http://inside.test/', { resolve, allowHosts: ['10.0.0.7'] }),
    ).rejects.toThrow(/private/);
  });
});

describe('outbound policy > connections', () => {
  const to =
    (address: string): LookupFunction =>
    (_host, _options, callback) =>
      callback(null, [{ address, family: 4 }]);
  it('the lookup hands the socket no loopback address', async () => {
    const lookup = guardedLookup({ lookup: to('127.0.0.1') });
    const error = await new Promise((resolve) => lookup('rebind.test', { all: true }, (e) => resolve(e)));
    expect(String(error)).toMatch(/rebind\.test \(127\.0\.0\.1\) is a loopback address/);
  });
  it('a POST to a name that now resolves to 127.0.0.1 is refused, and nothing reaches the server', async () => {
    const target = await serve(200);
    const policy = { resolve: async () => ['93.184.216.34'], lookup: to('127.0.0.1') };
    for (const agents of [undefined, outboundAgents()]) {
      const post = { headers: {}, body: '{}', timeoutMs: 5000, policy, ...(agents ? { agents } : {}) };
      await expect(postOutbound(`http://rebind.test:${target.port}/x`, post)).rejects.toThrow(/loopback/);
    }
    expect(target.got).toEqual([]);
  });
  it('a redirect is answered as it is, never followed', async () => {
    const elsewhere = await serve(200);
    const target = await serve(302, `${elsewhere.url}/followed`);
    const policy = { allowHosts: ['127.0.0.1'] };
    const answer = await postOutbound(`${target.url}/hook`, {
      headers: {},
      body: '{}',
      timeoutMs: 5000,
      policy,
    });
    expect(answer.status).toBe(302);
    expect(elsewhere.got).toEqual([]);
  });
  it('a pooled connection is used again for the next request to the same host', async () => {
    const target = await serve(204);
    // One connection per origin: a pool of more may open a second while the first is handed back.
    const agents = outboundAgents({ maxSockets: 1 });
    const post = { headers: {}, body: '{}', timeoutMs: 5000, policy: { allowHosts: ['127.0.0.1'] }, agents };
    expect((await postOutbound(`${target.url}/a`, post)).status).toBe(204);
    expect((await postOutbound(`${target.url}/b`, post)).status).toBe(204);
    expect(target.got).toEqual(['/a', '/b']);
    expect(target.connections.count).toBe(1);
    await agents.destroy();
  });
  it('a webhook that never answers is given up at its deadline, and its pooled connection serves the next request', async () => {
    const target = await serve(204, undefined, '/hang');
    const agents = outboundAgents({ maxSockets: 1 });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const post = {
        headers: {},
        body: '{}',
        policy: { allowHosts: ['127.0.0.1'] },
        agents,
        timeoutMs: 1_000,
      };
      const hanging = postOutbound(`${target.url}/hang`, post);
      await vi.waitFor(() => expect(target.got).toEqual(['/hang']));
      vi.advanceTimersByTime(1_000);
      await expect(hanging).rejects.toThrow(/timed out after 1000 ms/);
      expect((await postOutbound(`${target.url}/ok`, post)).status).toBe(204);
    } finally {
      vi.useRealTimers();
      await agents.destroy();
    }
  });
  it('checked URLs are kept per policy: a URL one policy allows is still refused under another', async () => {
    const target = await serve(204);
    const agents = outboundAgents();
    const post = { headers: {}, body: '{}', timeoutMs: 5000, agents };
    const open = { ...post, policy: { allowHosts: ['127.0.0.1'] } };
    expect((await postOutbound(`${target.url}/a`, open)).status).toBe(204);
    // Refused by the URL's check (the connection's own check would refuse it too, in other words).
    for (let i = 0; i < 2; i++)
      await expect(postOutbound(`${target.url}/a`, { ...post, policy: {} })).rejects.toThrow(
        /^127\.0\.0\.1 is a loopback address; allow the host/,
      );
    expect(target.got).toEqual(['/a']);
    await agents.destroy();
  });
  it('a request waiting for a pooled connection is not timed out while it waits: its deadline starts with its socket', async () => {
    const target = await serve(204, undefined, '/hang');
    const agents = outboundAgents({ maxSockets: 1 });
    const policy = { allowHosts: ['127.0.0.1'] };
    const first = new AbortController();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const post = { headers: {}, body: '{}', policy, agents };
      const hanging = postOutbound(`${target.url}/hang`, {
        ...post,
        timeoutMs: 60_000,
        signal: first.signal,
      });
      const queued = postOutbound(`${target.url}/ok`, { ...post, timeoutMs: 1_000 });
      await vi.waitFor(() => expect(target.got).toEqual(['/hang']));
      // Past the queued request's deadline as counted from when it was made: it has had no socket yet.
      vi.advanceTimersByTime(5_000);
      first.abort();
      await expect(hanging).rejects.toThrow(/aborted/);
      expect((await queued).status).toBe(204);
      expect(target.got).toEqual(['/hang', '/ok']);
    } finally {
      vi.useRealTimers();
      await agents.destroy();
    }
  });
  it('pipelining > requests are written to one connection before the first is answered, and answered in order', async () => {
    // The server answers nothing until it has all three: only a pipelined connection gets them to it. They are sent on
    // a connection opened by a first request, so the writes of one turn are held together (coalesce) and let go.
    const want = ['/0', '/1', '/2'];
    const held: Array<() => void> = [];
    const got: string[] = [];
    const server = createServer((req, res) => {
      got.push(req.url ?? '');
      req.resume();
      if (req.url === '/first') return res.writeHead(204).end();
      held.push(() => res.writeHead(204).end());
      if (held.length === want.length) for (const answer of held) answer();
    });
    servers.push(server);
    const connections = { count: 0 };
    server.on('connection', () => connections.count++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    // sound: a server listening on a TCP port reports an AddressInfo.
    const { port } = server.address() as AddressInfo;
    const agents = outboundAgents({ maxSockets: 1, pipelining: 3 });
    try {
      const post = {
        headers: {},
        body: '{}',
        timeoutMs: 5_000,
        policy: { allowHosts: ['127.0.0.1'] },
        agents,
      };
      expect((await postOutbound(`http://127.0.0.1:${port}/first`, post)).status).toBe(204);
      const answers = await Promise.all(
        want.map((path) => postOutbound(`http://127.0.0.1:${port}${path}`, post)),
      );
      expect(answers.map((a) => a.status)).toEqual([204, 204, 204]);
      expect(got).toEqual(['/first', ...want]);
      expect(connections.count).toBe(1);
    } finally {
      await agents.destroy();
    }
  });
  it('pipelining > requests sent one after another in ticks and microtasks, to a connection gone idle, leave in one write', async () => {
    const target = await serve(204);
    const agents = outboundAgents({ maxSockets: 1, pipelining: 4 });
    try {
      const post = {
        headers: {},
        body: '{}',
        timeoutMs: 5_000,
        policy: { allowHosts: ['127.0.0.1'] },
        agents,
      };
      // The connection is made, so the requests below go to it at once.
      expect((await postOutbound(`${target.url}/first`, post)).status).toBe(204);
      // The writes handed to the kernel from here on (each socket's `_write` or `_writev`).
      const write = vi.spyOn(Socket.prototype, '_write');
      const writev = vi.spyOn(Socket.prototype, '_writev');
      const answers = await new Promise<Promise<unknown>[]>((resolve) => {
        const first = postOutbound(`${target.url}/a`, post);
        // Sent from a tick queued after the first one's dispatch, and from a microtask after that tick.
        process.nextTick(() => {
          const second = postOutbound(`${target.url}/b`, post);
          queueMicrotask(() => resolve([first, second, postOutbound(`${target.url}/c`, post)]));
        });
      });
      await Promise.all(answers);
      expect(target.got).toEqual(['/first', '/a', '/b', '/c']);
      // The agent's side of the connection only: the server's socket writes its answers.
      const mine = [...write.mock.contexts, ...writev.mock.contexts].filter(
        (socket) => socket instanceof Socket && socket.remotePort === target.port,
      );
      expect(mine).toHaveLength(1);
    } finally {
      vi.restoreAllMocks();
      await agents.destroy();
    }
  });
  it('pipelining > a request behind one given up at its deadline is sent again on a new connection', async () => {
    const target = await serve(204, undefined, '/hang');
    const agents = outboundAgents({ maxSockets: 1, pipelining: 2 });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const post = { headers: {}, body: '{}', policy: { allowHosts: ['127.0.0.1'] }, agents };
      const hanging = postOutbound(`${target.url}/hang`, { ...post, timeoutMs: 1_000 });
      const behind = postOutbound(`${target.url}/ok`, { ...post, timeoutMs: 60_000 });
      await vi.waitFor(() => expect(target.got).toEqual(['/hang', '/ok']));
      vi.advanceTimersByTime(1_000);
      await expect(hanging).rejects.toThrow(/timed out after 1000 ms/);
      expect((await behind).status).toBe(204);
      // The receiver got it twice (at least once), and the connection of the hanging request was dropped.
      expect(target.got).toEqual(['/hang', '/ok', '/ok']);
      expect(target.connections.count).toBe(2);
    } finally {
      vi.useRealTimers();
      await agents.destroy();
    }
  });
  it('deadlines > requests with different deadlines each time out at their own, earliest first', async () => {
    const target = await serve(204, undefined, '/hang');
    const agents = outboundAgents({ maxSockets: 3 });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const post = { headers: {}, body: '{}', policy: { allowHosts: ['127.0.0.1'] }, agents };
      const settled: number[] = [];
      const hang = (timeoutMs: number) => {
        const answer = postOutbound(`${target.url}/hang`, { ...post, timeoutMs });
        answer.catch(() => settled.push(timeoutMs));
        return answer;
      };
      // The longest first: a shorter deadline that comes later must still be kept at its own moment.
      const [slow, fast, middle] = [hang(3_000), hang(1_000), hang(2_000)];
      await vi.waitFor(() => expect(target.got).toHaveLength(3));
      vi.advanceTimersByTime(1_000);
      await expect(fast).rejects.toThrow(/timed out after 1000 ms/);
      expect(settled).toEqual([1_000]);
      vi.advanceTimersByTime(1_000);
      await expect(middle).rejects.toThrow(/timed out after 2000 ms/);
      expect(settled).toEqual([1_000, 2_000]);
      vi.advanceTimersByTime(1_000);
      await expect(slow).rejects.toThrow(/timed out after 3000 ms/);
    } finally {
      vi.useRealTimers();
      await agents.destroy();
    }
  });
  it('deadlines > one timer keeps the deadlines of many requests, not one timer each', async () => {
    const target = await serve(204);
    const agents = outboundAgents({ maxSockets: 1 });
    const timers = vi.spyOn(globalThis, 'setTimeout');
    try {
      const post = {
        headers: {},
        body: '{}',
        timeoutMs: 7_777,
        policy: { allowHosts: ['127.0.0.1'] },
        agents,
      };
      for (let i = 0; i < 5; i++) expect((await postOutbound(`${target.url}/${i}`, post)).status).toBe(204);
      // Armed at most once for these five (not at all when a timer armed earlier is due sooner): each later deadline
      // falls after the armed one.
      const armed = timers.mock.calls.filter(([, ms]) => typeof ms === 'number' && ms > 7_000 && ms <= 7_777);
      expect(armed.length).toBeLessThanOrEqual(1);
    } finally {
      timers.mockRestore();
      await agents.destroy();
    }
  });
});
