/**
 * Makes assets/sample-scan.webm, the short video every generated arch scan carries. There is no ffmpeg here, so
 * Chromium draws a car passing under a scanning arch on a canvas and records it with MediaRecorder (VP8 in WebM).
 * Run once: `npx tsx server/scans-generator/make-sample-video.ts` (needs /usr/bin/chromium); the file is committed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const out = path.join(path.dirname(fileURLToPath(import.meta.url)), 'assets', 'sample-scan.webm');
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
});
try {
  const page = await browser.newPage();
  // A string, not a function: the TypeScript loader would add helpers the page does not have.
  const base64 = await page.evaluate<string>(`(async () => {
    const W = 320;
    const H = 180;
    const canvas = document.createElement('canvas');
    canvas.width = W;
    canvas.height = H;
    const g = canvas.getContext('2d');
    const recorder = new MediaRecorder(canvas.captureStream(15), { mimeType: 'video/webm;codecs=vp8', videoBitsPerSecond: 200_000 });
    const chunks = [];
    recorder.ondataavailable = (e) => chunks.push(e.data);
    const stopped = new Promise((resolve) => { recorder.onstop = resolve; });
    recorder.start();
    const t0 = performance.now();
    await new Promise((resolve) => {
      const frame = () => {
        const t = (performance.now() - t0) / 1000;
        g.fillStyle = '#1f2a36';
        g.fillRect(0, 0, W, H);
        g.fillStyle = '#3a4654';
        g.fillRect(0, 140, W, 40);
        // The car: body, cabin, wheels, moving left to right.
        const x = -120 + t * 150;
        g.fillStyle = '#b8c2cc';
        g.fillRect(x, 100, 120, 30);
        g.fillRect(x + 25, 80, 65, 24);
        g.fillStyle = '#111';
        g.beginPath(); g.arc(x + 25, 132, 11, 0, Math.PI * 2); g.fill();
        g.beginPath(); g.arc(x + 95, 132, 11, 0, Math.PI * 2); g.fill();
        // The arch with its scanning line.
        g.strokeStyle = '#0c1839';
        g.lineWidth = 10;
        g.beginPath(); g.moveTo(130, 145); g.lineTo(130, 40); g.lineTo(190, 40); g.lineTo(190, 145); g.stroke();
        g.strokeStyle = \`rgba(80, 200, 255, \${0.5 + 0.5 * Math.sin(t * 12)})\`;
        g.lineWidth = 3;
        g.beginPath(); g.moveTo(160, 46); g.lineTo(160, 140); g.stroke();
        if (t < 3) requestAnimationFrame(frame);
        else resolve();
      };
      frame();
    });
    recorder.stop();
    await stopped;
    const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
    let s = '';
    for (const b of bytes) s += String.fromCharCode(b);
    return btoa(s);
  })()`);
  fs.writeFileSync(out, Buffer.from(base64, 'base64'));
  console.log(`${out}: ${fs.statSync(out).size} bytes`);
} finally {
  await browser.close();
}
