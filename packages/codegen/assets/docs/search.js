// The docs site's search box: filters the index (assets/search-index.js) by name as one types, best matches first
// (exact, then prefix, then anywhere; a type, operation or method before a field of the same name; then those of
// the version being read), and links each result relative to the page (a field to its row on its type's page).
(() => {
  const input = document.getElementById('search');
  const list = document.getElementById('search-results');
  const root = document.body.dataset.root || '';
  const index = window.AGENTPROTO_SEARCH || [];
  if (!input || !list) return;
  // Among equally good matches, those of the protocol version the reader is on come first.
  const here = decodeURIComponent(window.location.pathname);
  const local = (e) => (here.includes(`/${e.path.split('/').slice(0, 2).join('/')}/`) ? 0 : 1);
  // Fields are many (every property of every type): among equally good matches, the named things come first.
  const weight = (e) => (e.kind === 'field' ? 1 : 0);
  const rank = (name, q) => {
    const n = name.toLowerCase();
    if (n === q) return 0;
    if (n.startsWith(q)) return 1;
    return n.includes(q) ? 2 : -1;
  };
  const show = () => {
    const q = input.value.trim().toLowerCase();
    list.replaceChildren();
    if (q === '') {
      list.hidden = true;
      return;
    }
    const found = index
      .map((e) => ({ e, r: rank(e.name, q) }))
      .filter((x) => x.r >= 0)
      .sort(
        (a, b) =>
          a.r - b.r ||
          a.e.name.length - b.e.name.length ||
          weight(a.e) - weight(b.e) ||
          local(a.e) - local(b.e) ||
          a.e.where.localeCompare(b.e.where),
      )
      .slice(0, 25);
    for (const { e } of found) {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = root + e.path;
      a.textContent = e.name;
      const where = document.createElement('span');
      where.className = 'hit-where';
      where.textContent = `${e.kind} · ${e.where}`;
      a.append(where);
      li.append(a);
      list.append(li);
    }
    if (found.length === 0) {
      const li = document.createElement('li');
      li.textContent = 'nothing found';
      li.className = 'none';
      list.append(li);
    }
    list.hidden = false;
  };
  input.addEventListener('input', show);
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      const first = list.querySelector('a');
      if (first) window.location.href = first.href;
    }
    if (event.key === 'Escape') {
      input.value = '';
      show();
    }
  });
})();
