import { benchHttp } from './bench/http.js';

for (const r of await benchHttp()) console.log(r.measure, '|', r.result, '|', r.target, r.met, '|', r.notes);
