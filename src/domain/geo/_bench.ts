import { loadSeaGraph, seaRoute } from './searoute.ts';
loadSeaGraph();
const pairs: [[number, number], [number, number]][] = [[[121.8, 31.2], [-118.26, 33.73]], [[121.8, 31.2], [4.0, 51.95]], [[103.8, 1.26], [-74.0, 40.6]], [[4.0, 51.95], [-74.0, 40.6]]];
for (let round = 0; round < 3; round++) {
  const times = pairs.map(([a, b]) => { const t = performance.now(); for (let i = 0; i < 20; i++) seaRoute(a, b); return ((performance.now() - t) / 20).toFixed(2); });
  console.log(times.join(' '));
}
