import { spawnServer, killChildren } from '/work/main/scripts/bench/load.ts';
const s = await spawnServer('app', '/work/main');
const r = await fetch(`http://127.0.0.1:${s.port}/api/v1/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'demo@providers.test', password: 'Providers2026' }) });
const { access } = await r.json() as { access: string };
const url = `http://127.0.0.1:${s.port}/api/v1/home`;
const times: number[] = [];
for (let i = 0; i < 600; i++) { const t = performance.now(); const res = await fetch(url, { headers: { authorization: `Bearer ${access}` } }); const body = await res.text(); if (i === 0) console.log(res.status, body.length); times.push(performance.now() - t); }
times.splice(0, 100); times.sort((a, b) => a - b);
console.log('sequential p50', times[250]!.toFixed(2), 'p99', times[495]!.toFixed(2));
await s.stop(); killChildren();
