import { benchSoak } from '/work/main/scripts/bench/soak.ts';

const rows = await benchSoak();
console.log(JSON.stringify(rows, null, 1));
