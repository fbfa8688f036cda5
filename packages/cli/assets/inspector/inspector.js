// The inspector's page: connects to an agent, builds requests from the schemas (checked as one types), shows each
// message as it arrives with the server's verdict (pointer, message, rule) and each stream item with the variant of
// its type it is, then what the stream answered; runs the conformance suite, saves the session. Every API call carries the inspector's header; the server refuses calls without it.
(() => {
  const $ = (id) => document.getElementById(id);
  const api = (path, init = {}) =>
    fetch(path, {
      ...init,
      headers: { 'x-agentproto-inspector': '1', 'content-type': 'application/json', ...(init.headers || {}) },
    });
  const el = (tag, attrs = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === 'className') node.className = v;
      else node.setAttribute(k, v);
    }
    for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return node;
  };
  const pretty = (v) => (typeof v === 'string' ? v : (JSON.stringify(v, null, 2) ?? ''));
  const issueList = (issues) =>
    el(
      'ul',
      { className: 'issues' },
      ...issues.map((i) =>
        el(
          'li',
          {},
          el('code', {}, i.pointer === '' ? '(the message)' : i.pointer),
          ` ${i.message} `,
          el('span', { className: 'muted' }, `[${i.rule}${i.index ? ` · item ${i.index}` : ''}]`),
        ),
      ),
    );
  const badge = (issues, checked) =>
    el(
      'span',
      { className: `badge ${!checked ? 'none' : issues.length === 0 ? 'ok' : 'bad'}` },
      !checked ? 'unchecked' : issues.length === 0 ? 'valid' : 'invalid',
    );

  let info = { operations: [], hints: {} };
  let current = null;
  let running = null;

  async function loadInfo() {
    info = await (await api('/api/info')).json();
    $('protocol').textContent = `${info.title} (${info.protocol}@${info.version})`;
    if (info.target && !$('target').value) $('target').value = info.target;
    $('session-count').textContent =
      `${info.records} records in the session${info.dropped ? `, ${info.dropped} not kept (the session is full)` : ''}`;
    return info;
  }

  function showOperations() {
    const select = $('operation');
    select.replaceChildren(...info.operations.map((o) => el('option', { value: o.id }, o.label)));
    select.addEventListener('change', () => pick(select.value));
    // A request ready to send: one with an example body, a streamed one first (it shows the most).
    const ready = info.operations.filter((o) => o.example !== undefined && o.bodyType);
    const first = ready.find((o) => o.streams) || ready[0] || info.operations[0];
    if (first) {
      select.value = first.id;
      pick(first.id);
    }
  }

  function pick(id) {
    current = info.operations.find((o) => o.id === id);
    if (!current) return;
    const params = $('params');
    params.replaceChildren();
    for (const [where, list] of [
      ['path', current.pathParams],
      ['query', current.queryParams],
    ]) {
      for (const p of list) {
        const input = el('input', {
          'data-where': where,
          'data-name': p.name,
          'aria-label': `${where} parameter ${p.name}`,
        });
        input.value = info.hints[p.name] ?? '';
        params.append(el('label', {}, `${p.name}${p.required ? ' (required)' : ''} `, input));
      }
    }
    const hasBody = current.bodyType !== undefined || current.bodyKind !== undefined;
    $('body-label').hidden = !hasBody;
    $('body-type').textContent = current.bodyType
      ? `(${current.bodyType}${current.bodyKind === 'form' ? ', sent as a form' : ''})`
      : '';
    $('body').value = hasBody ? pretty(current.example ?? {}) : '';
    $('operation-summary').textContent = current.streams
      ? 'The answer streams: each item is checked as it arrives.'
      : '';
    checkBody();
  }

  let checkTimer;
  function checkBody() {
    clearTimeout(checkTimer);
    const out = $('body-check');
    if (!current?.bodyType || $('body-label').hidden) {
      out.replaceChildren();
      return;
    }
    checkTimer = setTimeout(async () => {
      const r = await (
        await api('/api/check', {
          method: 'POST',
          body: JSON.stringify({ type: current.bodyType, text: $('body').value }),
        })
      ).json();
      out.dataset.valid = String(r.valid);
      out.replaceChildren(
        r.valid
          ? el('span', { className: 'ok' }, `valid ${current.bodyType}`)
          : el(
              'div',
              {},
              el('span', { className: 'bad' }, `not a valid ${current.bodyType}:`),
              issueList(r.issues),
            ),
      );
    }, 200);
  }

  function recordRow(record, issues, itemLabel) {
    const label =
      record.direction === 'response'
        ? `${record.status}`
        : record.direction === 'event'
          ? 'item'
          : record.direction === 'end'
            ? record.complete
              ? 'closed'
              : 'cut'
            : '';
    const checked =
      record.type !== undefined || record.stream === true || record.direction === 'end' || issues.length > 0;
    const row = el(
      'div',
      {
        className: 'record',
        'data-direction': record.direction,
        'data-valid': String(issues.length === 0),
        'data-checked': String(checked),
      },
      el('span', {}, record.direction),
      badge(issues, checked),
      el(
        'div',
        {},
        el('span', { className: 'muted' }, `${label}${record.type ? ` · ${record.type}` : ''}`),
        itemLabel ? el('span', { className: 'item-label' }, itemLabel.join(' › ')) : '',
        record.message === undefined
          ? ''
          : record.direction === 'event'
            ? el('code', { className: 'line', title: pretty(record.message) }, JSON.stringify(record.message))
            : el('pre', {}, pretty(record.message)),
        issues.length ? issueList(issues) : '',
      ),
    );
    return row;
  }

  async function send() {
    if (!current) return;
    const path = {};
    const query = {};
    for (const input of $('params').querySelectorAll('input')) {
      (input.dataset.where === 'path' ? path : query)[input.dataset.name] = input.value;
    }
    const request = { operation: current.id, path, query };
    if (!$('body-label').hidden) request.body = $('body').value;
    const box = el('section', { className: 'exchange' }, el('h3', {}, current.label));
    $('log').prepend(box);
    $('send').disabled = true;
    $('stop').disabled = false;
    try {
      const response = await api('/api/send', { method: 'POST', body: JSON.stringify(request) });
      if (!response.ok || !response.body) {
        const r = await response.json().catch(() => ({ error: response.statusText }));
        box.append(el('p', { className: 'bad' }, r.error));
        return;
      }
      await readLines(response.body, (msg) => {
        if (msg.exchange !== undefined && !msg.record) {
          running = msg.exchange;
          box.dataset.exchange = String(msg.exchange);
        } else if (msg.error) box.append(el('p', { className: 'bad error' }, msg.error));
        else if (msg.answer) box.append(answerView(msg.answer));
        else box.append(recordRow(msg.record, msg.issues, msg.label));
      });
    } finally {
      running = null;
      $('send').disabled = false;
      $('stop').disabled = true;
      await loadInfo();
      if (current)
        for (const input of $('params').querySelectorAll('input'))
          if (!input.value) input.value = info.hints[input.dataset.name] ?? '';
    }
  }

  // What a stream answered: each kind of item with its count and its last one, the stream's last item at the bottom.
  function answerView(answer) {
    return el(
      'div',
      { className: 'answer' },
      el(
        'h4',
        {},
        `Answer: ${answer.items} ${answer.items === 1 ? 'item' : 'items'}${answer.complete ? '' : ' (the stream was cut)'}`,
      ),
      el('p', { className: 'muted' }, answer.note),
      ...answer.kinds.map((k, i) =>
        el(
          'details',
          // The stream's last item (the last kind) is shown open.
          {
            className: 'answer-kind',
            'data-label': k.label,
            ...(i === answer.kinds.length - 1 ? { open: '' } : {}),
          },
          el('summary', {}, el('span', { className: 'item-label' }, k.label), ` × ${k.count}`),
          el('pre', {}, pretty(k.last)),
        ),
      ),
    );
  }

  async function readLines(body, each) {
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffered += value;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) each(JSON.parse(line));
    }
  }

  async function discover() {
    const box = $('discovery');
    box.replaceChildren();
    for (const op of info.operations.filter((o) => o.discovery)) {
      const item = el(
        'div',
        { className: 'discovery-item', 'data-operation': op.id },
        el('h3', {}, op.label),
      );
      box.append(item);
      const response = await api('/api/send', { method: 'POST', body: JSON.stringify({ operation: op.id }) });
      if (!response.ok || !response.body) {
        item.append(
          el(
            'p',
            { className: 'bad' },
            (await response.json().catch(() => ({}))).error ?? response.statusText,
          ),
        );
        continue;
      }
      await readLines(response.body, (msg) => {
        if (msg.error) item.append(el('p', { className: 'bad' }, msg.error));
        else if (msg.record && msg.record.direction !== 'request')
          item.append(recordRow(msg.record, msg.issues));
      });
    }
    await loadInfo();
  }

  async function conformance() {
    const button = $('run-conformance');
    button.disabled = true;
    $('conformance-summary').textContent = 'running…';
    try {
      const response = await api('/api/conformance', { method: 'POST', body: '{}' });
      const report = await response.json();
      if (!response.ok) {
        $('conformance-summary').textContent = report.error;
        return;
      }
      const s = report.summary;
      // An agent that does not answer as the protocol: one diagnosis, and the other checks blocked.
      const blocked = s.blocked > 0 ? `, ${s.blocked} blocked` : '';
      $('conformance-summary').textContent =
        `${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped${blocked}; ${s.messagesValidated} messages validated` +
        (report.diagnosis ? `. ${report.diagnosis}` : '');
      $('conformance-summary').dataset.failed = String(s.failed);
      const table = $('conformance');
      table.tBodies[0].replaceChildren(
        ...report.checks.map((c) =>
          el(
            'tr',
            { 'data-status': c.status },
            el(
              'td',
              { className: c.status === 'pass' ? 'ok' : c.status === 'fail' ? 'bad' : 'muted' },
              c.status,
            ),
            el('td', {}, c.level),
            el('td', {}, el('code', {}, c.id)),
            el('td', {}, c.message ?? ''),
          ),
        ),
      );
      table.hidden = false;
    } finally {
      button.disabled = false;
    }
  }

  async function save() {
    const response = await api('/api/session');
    const name =
      /filename="([^"]+)"/.exec(response.headers.get('content-disposition') || '')?.[1] ?? 'session.ndjson';
    const url = URL.createObjectURL(await response.blob());
    const a = el('a', { href: url, download: name });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  $('connect').addEventListener('submit', async (event) => {
    event.preventDefault();
    const r = await api('/api/target', { method: 'POST', body: JSON.stringify({ url: $('target').value }) });
    if (!r.ok) {
      $('discovery').replaceChildren(el('p', { className: 'bad' }, (await r.json()).error));
      return;
    }
    await discover();
  });
  $('body').addEventListener('input', checkBody);
  $('send').addEventListener('click', send);
  $('stop').addEventListener(
    'click',
    () => running !== null && api(`/api/stop/${running}`, { method: 'POST' }),
  );
  $('run-conformance').addEventListener('click', conformance);
  $('save').addEventListener('click', save);
  $('clear').addEventListener('click', async () => {
    await api('/api/session', { method: 'DELETE' });
    $('log').replaceChildren();
    await loadInfo();
  });

  loadInfo().then(() => {
    showOperations();
    if (info.target) discover();
  });
})();
