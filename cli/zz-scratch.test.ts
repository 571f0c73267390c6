import { it } from 'vitest';
import { main } from './main.js';
it('gate sdk', async () => {
  const argv = (process.env.ARGV ?? '').split(' ');
  const out: string[] = [];
  const io = { stdout: (t: string) => void out.push(t), stderr: (t: string) => void out.push(t), stderrIsTty: false, stderrColumns: 100, nowMs: () => performance.now(), randomSeed: () => 4242, peakRssBytes: () => 1 };
  const code = await main(argv, io as any);
  console.log(out.join('').slice(-Number(process.env.TAIL ?? 4000)));
  console.log('EXIT', code);
}, 600_000);
