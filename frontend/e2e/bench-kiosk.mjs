// The gate kiosk's speed, measured (run by `make bench`; issue 16's target: face in view → the
// answer under 1.5 s on this machine, the liveness challenge's detection frames included):
//   TATIB_SERVER_BIN=../bin/tatib-server TATIB_TEST_DATABASE_URL=postgres://…/postgres node e2e/bench-kiosk.mjs
// The real server (the embedded build, a fresh database) and Debian's Chromium whose fake camera
// plays a clip of e2e/face-clips.py, as in e2e/face.test.mjs. Person A is enrolled with
// embeddings the engine takes from the clip; then the kiosk (/kiosk, blink challenge only) is
// left running in front of A's blinking clip for BENCH_SCANS answers (default 10, after one
// warm-up answer), then in front of B's (not enrolled). For each answer: the kiosk's own
// figure (kiosk-result's data-millis: face in view → answer) and its parts from the times
// kiosk-status changed state. Beside them the floors of the same run: the engine's bare
// detection per frame (without and with the embedding) on the same camera in a page where
// nothing else runs, and the server's round trips of POST /face/challenge and POST /face/scan
// sent straight from a page with A's embedding and a valid blink.
//
// The clip blinks on its own schedule (21 frames at 10 fps, looped: open 1.5 s, closing, shut
// 0.4 s, opening), so the challenge's part includes waiting for the next blink: up to a
// whole 2.1 s loop, whatever the kiosk does. The page watches the clip's frames itself
// (requestVideoFrameCallback, the eyes' region of each frame: open, half or shut) and finds
// the frame that completed the blink the kiosk passed on; "own time" is data-millis minus the
// wait from the challenge appearing to that frame, the time a person who blinks at once sees.
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from './harness.mjs';
import { DESKTOP, apiCall, freePort, need, psql, waitReady } from './helpers.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const ADMIN_PASSWORD = 'admin-bench-Rahasia1';
const resultsDir = path.resolve(here, '../test-results');
const SCANS = Math.max(8, Number(process.env.BENCH_SCANS ?? 10));
const FLOOR_RUNS = Number(process.env.BENCH_FLOOR_RUNS ?? 15);
const TARGET_MS = 1500;
/** The clip's frame period and loop (face-clips.py: FPS 10, OPEN 15 + half + CLOSED 4 + half). */
const FRAME_MS = 100;
const LOOP_MS = 2100;

/**
 * The eyes' region of each person in the clip's 640x480 frame (a box around both eye outlines
 * of face-clips.py's EYES, with their margin): where the page tells open from shut.
 */
const EYE_BOX = { a: { x: 245, y: 166, w: 155, h: 42 }, b: { x: 243, y: 180, w: 167, h: 37 } };

// ---- The clips (as e2e/face.test.mjs builds them: once, into a cache keyed by the script) ----

const CLIPS = ['a-blink.y4m', 'a-still.y4m', 'b-blink.y4m', 'b-still.y4m'];

function clip(name) {
  const script = path.join(here, 'face-clips.py');
  const key = createHash('sha256').update(readFileSync(script)).digest('hex').slice(0, 12);
  const dir = path.join(os.tmpdir(), `tatib-face-clips-${key}`);
  if (!CLIPS.every((f) => existsSync(path.join(dir, f)))) {
    execFileSync('/usr/bin/python3', [script, dir], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  return path.join(dir, name);
}

function cameraBrowser(clipName) {
  return launchBrowser(['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${clip(clipName)}`]);
}

async function newContext(browser, baseURL) {
  const context = await browser.newContext({ baseURL, viewport: DESKTOP, locale: 'id-ID', timezoneId: 'UTC' });
  context.setDefaultTimeout(30_000);
  await context.grantPermissions(['camera'], { origin: baseURL });
  return context;
}

// ---- Figures ----------------------------------------------------------------------------

const sorted = (xs) => [...xs].filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
function median(xs) {
  const s = sorted(xs);
  if (s.length === 0) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
/** The 90th percentile, nearest rank. */
function p90(xs) {
  const s = sorted(xs);
  return s.length ? s[Math.min(s.length - 1, Math.ceil(0.9 * s.length) - 1)] : NaN;
}
const ms = (n, w = 8) => (Number.isFinite(n) ? `${Math.round(n)} ms` : '-').padStart(w);

// ---- The kiosk page, watched --------------------------------------------------------------

/**
 * Runs in the kiosk page before its scripts: records when kiosk-status changes state, each
 * answer, and each camera frame's eye region (its grey level's spread: an open eye, white and
 * dark, spreads more than a painted-shut lid). Nothing here touches the kiosk's own work but
 * one 64x16 read of each frame (about a tenth of a millisecond).
 */
function recorder(box) {
  const rec = { states: [], results: [], frames: [], noCallback: false };
  window.__bench = rec;
  performance.setResourceTimingBufferSize?.(100_000);
  let last = null;
  let waitingResult = false;
  const W = 64;
  const H = 16;
  const canvas = new OffscreenCanvas(W, H);
  const g = canvas.getContext('2d', { willReadFrequently: true });
  const hook = () => {
    const v = document.querySelector('video');
    if (!v || v.__bench) return;
    v.__bench = true;
    if (!('requestVideoFrameCallback' in v)) {
      rec.noCallback = true;
      return;
    }
    const onFrame = (now, meta) => {
      if (v.videoWidth > 0) {
        const sx = v.videoWidth / 640;
        const sy = v.videoHeight / 480;
        g.drawImage(v, box.x * sx, box.y * sy, box.w * sx, box.h * sy, 0, 0, W, H);
        const px = g.getImageData(0, 0, W, H).data;
        let sum = 0;
        let sq = 0;
        for (let i = 0; i < W * H; i++) {
          const y = 0.299 * px[i * 4] + 0.587 * px[i * 4 + 1] + 0.114 * px[i * 4 + 2];
          sum += y;
          sq += y * y;
        }
        const mean = sum / (W * H);
        rec.frames.push({ now, cap: meta.captureTime ?? null, n: meta.presentedFrames, spread: Math.sqrt(Math.max(0, sq / (W * H) - mean * mean)) });
      }
      v.requestVideoFrameCallback(onFrame);
    };
    v.requestVideoFrameCallback(onFrame);
  };
  const check = () => {
    hook();
    const st = document.querySelector('[data-testid="kiosk-status"]')?.getAttribute('data-state') ?? null;
    if (st !== last) {
      last = st;
      rec.states.push({ v: st, at: performance.now() });
      if (st === 'result') waitingResult = true;
    }
    if (waitingResult) {
      const r = document.querySelector('[data-testid="kiosk-result"]');
      if (r && r.hasAttribute('data-millis')) {
        waitingResult = false;
        rec.results.push({
          at: rec.states[rec.states.length - 1].at,
          outcome: r.getAttribute('data-outcome'),
          attendance: r.getAttribute('data-attendance'),
          millis: Number(r.getAttribute('data-millis')),
        });
      }
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state', 'data-millis'] });
}

/**
 * The times the clip's eyes began to open again after a blink, in the page's clock. Each
 * frame is open or not by its eye region's spread: the open frames (15 of every 21) give the
 * run's widest one, the others (half-closed, shut 4 frames, half-open: face-clips.py) narrower
 * ones, the two half frames the very same picture. A blink's completing frame is its
 * half-open one, from which the kiosk's tracker can see the eyes opening: the last not-open
 * frame before an open one when it is a half frame; when the page missed it (a gap in
 * presentedFrames after a shut frame), a frame after the last shut one. A frame's time is the
 * earlier of its capture time (where Chromium gives one) and the callback's: the earliest the
 * kiosk could have read it, so the wait is never overstated.
 */
function blinkEnds(frames) {
  const spreads = frames.map((f) => f.spread);
  const hi = Math.max(...spreads);
  const lo = Math.min(...spreads);
  const open = (f) => f.spread >= hi - 0.25 * (hi - lo);
  const time = (f) => Math.min(f.cap ?? f.now, f.now);
  // The half frame's spread: the first not-open frame right after an open one (no gap).
  const halves = [];
  for (let i = 1; i < frames.length; i++) {
    const [prev, f] = [frames[i - 1], frames[i]];
    if (open(prev) && !open(f) && f.n - prev.n === 1) halves.push(f.spread);
  }
  const half = median(halves);
  const isHalf = (f) => Math.abs(f.spread - half) < 0.05;
  const ends = [];
  for (let i = 1; i < frames.length; i++) {
    const [prev, f] = [frames[i - 1], frames[i]];
    if (open(prev) || !open(f)) continue;
    ends.push(f.n - prev.n === 1 || isHalf(prev) ? time(prev) : time(prev) + FRAME_MS);
  }
  return { ends, contrast: hi - lo };
}

/**
 * Opens the kiosk in front of the camera and keeps it answering until `count` answers after
 * the first; returns each answer with its parts.
 */
async function kioskRun(browser, baseURL, token, person, count) {
  const context = await newContext(browser, baseURL);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const sent = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/api/v1/face/scan')) sent.push(r.postDataJSON()?.challenge ?? null);
  });
  await page.addInitScript(recorder, EYE_BOX[person]);
  await page.goto(`/kiosk#token=${token}`);
  await page.getByTestId('kiosk-screen').waitFor({ state: 'visible' });
  try {
    await page.waitForFunction((n) => window.__bench.results.length >= n, count + 1, { timeout: (count + 1) * 60_000, polling: 250 });
  } catch (err) {
    const got = await page.evaluate(() => ({ results: window.__bench.results, states: window.__bench.states.slice(-12) }));
    throw new Error(`kiosk (${person}): ${got.results.length} of ${count + 1} answers: ${JSON.stringify(got)}; page errors: ${errors.join('; ')}\n${err.message}`, { cause: err });
  }
  const rec = await page.evaluate(() => {
    const rt = (name) =>
      performance
        .getEntriesByType('resource')
        .filter((e) => e.name.endsWith(name))
        .map((e) => ({ start: e.startTime, end: e.responseEnd }));
    return { ...window.__bench, challenges: rt('/api/v1/face/challenge'), scansRT: rt('/api/v1/face/scan') };
  });
  await context.close();
  if (rec.noCallback || rec.frames.length < 20) throw new Error(`kiosk (${person}): the page saw ${rec.frames.length} camera frames (requestVideoFrameCallback ${rec.noCallback ? 'missing' : 'ok'})`);
  const { ends, contrast } = blinkEnds(rec.frames);
  const caps = rec.frames.filter((f) => f.cap !== null);
  const gaps = rec.frames.slice(1).filter((f, i) => f.n - rec.frames[i].n > 1).length;

  const rows = [];
  for (const [i, r] of rec.results.entries()) {
    const before = (v) => [...rec.states].reverse().find((s) => s.v === v && s.at <= r.at)?.at ?? NaN;
    const challengeAt = before('challenge');
    const checkingAt = before('checking');
    const seen = r.at - r.millis;
    // The blink the kiosk passed on: the last one completed before it left the challenge.
    const end = [...ends].reverse().find((t) => t <= checkingAt);
    // A blink completed before the challenge showed cannot be the one (the tracker needs to
    // see the eyes open first): then the page missed the frames that tell, no figure.
    const wait = end === undefined || end < challengeAt - FRAME_MS ? NaN : Math.max(0, end - challengeAt);
    const inside = (list) => list.find((x) => x.start >= seen - 1 && x.end <= r.at + 1);
    const ch = inside(rec.challenges);
    const sc = inside(rec.scansRT);
    rows.push({
      outcome: r.outcome,
      attendance: r.attendance,
      millis: r.millis,
      idle: challengeAt - seen,
      challenge: checkingAt - challengeAt,
      checking: r.at - checkingAt,
      wait,
      own: r.millis - wait,
      challengeRT: ch ? ch.end - ch.start : NaN,
      scanRT: sc ? sc.end - sc.start : NaN,
      frames: sent[i]?.frames ?? NaN,
      trackMillis: sent[i]?.millis ?? NaN,
      first: i === 0,
    });
  }
  if (process.env.BENCH_DEBUG) {
    const file = path.join(resultsDir, `bench-kiosk-${person}.json`);
    writeFileSync(file, JSON.stringify({ rec, ends, rows }));
    console.log(`(BENCH_DEBUG: the page's record in ${file})`);
  }
  return {
    rows: rows.slice(1, count + 1),
    warmup: rows[0],
    frames: rec.frames.length,
    gaps,
    captureTime: caps.length === rec.frames.length,
    blinks: ends.length,
    contrast,
  };
}

// ---- The floors -------------------------------------------------------------------------

/**
 * In a page where no kiosk runs (the pairing form, signed in as the admin): the engine module
 * the kiosk loads (its chunk, found among the scripts the enrol page loaded), started on its
 * own, timed on the camera's frames without and with the embedding; three good frames' embeddings
 * are kept to enrol A.
 */
async function engineFloor(context, studentId) {
  const page = await context.newPage();
  const scripts = new Set();
  page.on('response', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/assets/') && u.pathname.endsWith('.js')) scripts.add(u.pathname);
  });
  // The enrol page loads the engine chunk; which file is it (the build names it)?
  await page.goto(`/students/${studentId}/face`);
  await page.getByTestId('face-quality').waitFor({ state: 'attached', timeout: 120_000 });
  // Found by its export list (the one chunk exporting loadFaceEngine and checkQuality), read
  // from the server: importing every chunk inside the page stopped finding it (the loop's record
  // showed only two of nineteen imports; the cause was not pinned down), so make bench failed here.
  let engineURL = null;
  for (const u of scripts) {
    const src = await (await page.request.get(u)).text();
    const exported = src.match(/export\s*\{([^}]*)\}\s*;?\s*$/)?.[1] ?? '';
    if (/\bas loadFaceEngine\b/.test(exported) && /\bas checkQuality\b/.test(exported)) {
      engineURL = u;
      break;
    }
  }
  if (!engineURL) throw new Error(`the engine chunk is not among ${[...scripts].join(', ')}`);
  // A page with nothing running: the kiosk's pairing form (no token in this context).
  await page.goto('/kiosk');
  await page.getByTestId('kiosk-pair').waitFor({ state: 'visible' });
  const out = await page.evaluate(
    async ([url, runs]) => {
      const mod = await import(url);
      const t0 = performance.now();
      const engine = await mod.loadFaceEngine();
      const load = performance.now() - t0;
      const video = document.createElement('video');
      video.muted = true;
      video.playsInline = true;
      video.style.cssText = 'position:fixed;right:0;bottom:0;width:160px;height:120px';
      document.body.append(video);
      video.srcObject = await navigator.mediaDevices.getUserMedia({ audio: false, video: { width: { ideal: 640 }, height: { ideal: 480 }, facingMode: 'user' } });
      await video.play();
      while (video.readyState < 2) await new Promise((r) => setTimeout(r, 20));
      const time = async (embedding) => {
        const t = performance.now();
        const r = await engine.detect(video, { embedding });
        return { wall: performance.now() - t, engine: r.millis, faces: r.faces };
      };
      for (let i = 0; i < 3; i++) await time(false);
      const plain = [];
      for (let i = 0; i < runs; i++) plain.push(await time(false));
      const withEmb = [];
      const samples = [];
      for (let i = 0; i < runs || samples.length < 3; i++) {
        const r = await time(true);
        withEmb.push(r);
        const f = r.faces;
        if (samples.length < 3 && mod.checkQuality(f).ok && f[0].embedding) samples.push(f[0].embedding);
        if (i > runs + 40) break;
      }
      video.srcObject.getTracks().forEach((t) => t.stop());
      return {
        load,
        backend: engine.info().backend,
        plain: plain.map((r) => r.wall),
        plainEngine: plain.map((r) => r.engine),
        faces: plain.filter((r) => r.faces.length === 1).length,
        emb: withEmb.slice(0, runs).map((r) => r.wall),
        samples,
      };
    },
    [engineURL, FLOOR_RUNS],
  );
  await page.close();
  return { ...out, engineURL };
}

/** The server's part alone: challenge then scan with A's embedding and a valid blink, from a page. */
async function serverFloor(context, token, embedding, model, runs) {
  const page = await context.newPage();
  await page.goto('/kiosk');
  const out = await page.evaluate(
    async ([tok, emb, mdl, n]) => {
      const call = async (url, body) => {
        const t = performance.now();
        const res = await fetch(url, {
          method: 'POST',
          credentials: 'omit',
          headers: { Authorization: `Bearer ${tok}`, Accept: 'application/json', ...(body ? { 'Content-Type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
        const json = await res.json();
        return { ms: performance.now() - t, status: res.status, json };
      };
      const rows = [];
      for (let i = 0; i < n + 1; i++) {
        const c = await call('/api/v1/face/challenge');
        if (c.status !== 201) return { error: `challenge ${c.status} ${JSON.stringify(c.json)}` };
        const s = await call('/api/v1/face/scan', {
          model: mdl,
          embedding: emb,
          challenge: { id: c.json.id, kind: c.json.kind, passed: true, open_min: 0.3, open_max: 1, frames: 6, millis: 600 },
        });
        if (s.status !== 200 && s.status !== 201) return { error: `scan ${s.status} ${JSON.stringify(s.json)}` };
        rows.push({ challenge: c.ms, scan: s.ms, outcome: s.json.outcome, kind: c.json.kind });
      }
      return { rows: rows.slice(1) };
    },
    [token, embedding, model, runs],
  );
  await page.close();
  if (out.error) throw new Error(`server floor: ${out.error}`);
  return out.rows;
}

// ---- The run ------------------------------------------------------------------------------

function count(rows, key) {
  const m = new Map();
  for (const r of rows) m.set(r[key], (m.get(r[key]) ?? 0) + 1);
  return [...m].map(([k, v]) => `${k} ${v}`).join(', ');
}

function printKiosk(label, run, fl) {
  const { rows } = run;
  const line = (name, xs, floor, note = '') =>
    console.log(
      `  ${name.padEnd(40)}${ms(median(xs), 9)}${ms(p90(xs), 9)}${ms(Math.min(...sorted(xs)), 9)}${ms(Math.max(...sorted(xs)), 9)}${ms(floor, 9)}` +
        `${(Number.isFinite(floor) ? `${(median(xs) / floor).toFixed(2)}x` : '').padStart(7)}  ${note}`,
    );
  console.log(`\n${label}: ${rows.length} answers after one warm-up (${count(rows, 'outcome')}; attendance ${count(rows, 'attendance')})`);
  console.log(`  ${''.padEnd(40)}${'median'.padStart(9)}${'p90'.padStart(9)}${'min'.padStart(9)}${'max'.padStart(9)}${'floor'.padStart(9)}${'ratio'.padStart(7)}`);
  line('face in view → answer (data-millis)', rows.map((r) => r.millis), NaN, `the clip's blink wait included; target < ${TARGET_MS} ms`);
  line('  idle → challenge', rows.map((r) => r.idle), fl.idle, '2 frontal frames + POST /face/challenge');
  line('  challenge → checking', rows.map((r) => r.challenge), NaN, 'waiting for the blink + the frame that sees it end');
  line('    the clip\'s blink wait', rows.map((r) => r.wait), NaN, 'challenge shown → the frame the eyes open again');
  line('    the rest (challenge → checking − wait)', rows.map((r) => r.challenge - r.wait), fl.blink, 'the tracker seeing the eyes open again');
  line('  checking → result', rows.map((r) => r.checking), fl.checking, 'capture frame (embedding) + POST /face/scan + painting');
  line('kiosk\'s own time (data-millis − wait)', rows.map((r) => r.own), fl.total, `target < ${TARGET_MS} ms`);
  line('  POST /face/challenge in the kiosk', rows.map((r) => r.challengeRT), fl.chal, 'resource timing');
  line('  POST /face/scan in the kiosk', rows.map((r) => r.scanRT), fl.scan, 'resource timing');
  const perFrame = rows.map((r) => (r.frames > 1 ? r.trackMillis / (r.frames - 1) : NaN));
  line('  challenge: ms per tracked frame', perFrame, fl.det, `median ${median(rows.map((r) => r.frames))} frames a challenge (the tracker's figures sent with the scan)`);
  const own = median(rows.map((r) => r.own));
  const missing = rows.filter((r) => !Number.isFinite(r.wait)).length;
  console.log(
    `  => own time ${ms(own, 0)} (p90 ${ms(p90(rows.map((r) => r.own)), 0)}), ${(own / fl.total).toFixed(2)}x the floor: ${own < TARGET_MS ? 'under' : 'OVER'} the ${TARGET_MS} ms target; ` +
      `with the clip's wait ${ms(median(rows.map((r) => r.millis)), 0)}${missing ? `; blink not found for ${missing} answer(s), left out of the wait and own time` : ''}`,
  );
  console.log(
    `  (camera frames seen by the page ${run.frames}, skipped ${run.gaps}, timed by ${run.captureTime ? 'capture time' : 'callback time'}; blinks found ${run.blinks}, eye-region contrast ${run.contrast.toFixed(1)}; ` +
      `warm-up answer ${run.warmup.outcome} in ${run.warmup.millis} ms)`,
  );
}

async function main() {
  const bin = path.resolve(need('TATIB_SERVER_BIN', 'bench-kiosk.mjs'));
  const adminURL = need('TATIB_TEST_DATABASE_URL', 'bench-kiosk.mjs');
  const dbName = `tatib_bench_${randomBytes(5).toString('hex')}`;
  const dbURL = new URL(adminURL);
  dbURL.pathname = `/${dbName}`;
  const sql = (q) => execFileSync('psql', [dbURL.toString(), '-v', 'ON_ERROR_STOP=1', '-qAt', '-c', q], { encoding: 'utf8' }).trim().split('\n')[0];
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tatib-bench-'));
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  let server;
  const browsers = [];
  const cleanup = async () => {
    for (const b of browsers) await b.close().catch(() => {});
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => {
        const t = setTimeout(() => (server.kill('SIGKILL'), r()), 10_000);
        server.once('exit', () => (clearTimeout(t), r()));
      });
    }
    try {
      psql(adminURL, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    } catch (err) {
      console.error(`bench: could not drop ${dbName}: ${err.message}`);
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  for (const sig of ['SIGINT', 'SIGTERM']) process.once(sig, () => void cleanup().finally(() => process.exit(130)));

  let failed = false;
  try {
    clip('a-blink.y4m');
    psql(adminURL, `CREATE DATABASE ${dbName}`);
    server = spawn(bin, ['serve'], {
      env: {
        ...process.env,
        DATABASE_URL: dbURL.toString(),
        TATIB_ADDR: `127.0.0.1:${port}`,
        TATIB_ADMIN_PASSWORD: ADMIN_PASSWORD,
        TATIB_DEMO: '0',
        TATIB_DATA_DIR: dataDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await mkdir(resultsDir, { recursive: true });
    const log = createWriteStream(path.join(resultsDir, 'bench-kiosk-server.log'));
    server.stdout.pipe(log);
    server.stderr.pipe(log);
    await waitReady(baseURL, server);

    // A class with students A and B (the clips' two faces).
    const classId = sql(`INSERT INTO classes (name, grade) VALUES ('X BENCH', 10) RETURNING id`);
    const student = (n, name) =>
      Number(sql(`INSERT INTO students (source_id, nisn, nis, full_name, gender, class_id) VALUES (${n}, '00${n}', '${n}', '${name}', 'P', ${classId}) RETURNING id`));
    const A = student(900001, 'Ayu Astronaut');
    student(900002, 'Bunga Hopper');

    const browserA = await cameraBrowser('a-blink.y4m');
    browsers.push(browserA);
    const admin = await newContext(browserA, baseURL);
    const page = await admin.newPage();
    await page.goto('/sign-in');
    const login = await apiCall(page, 'POST', '/api/v1/auth/login', { username: 'admin', password: ADMIN_PASSWORD });
    if (login.status !== 200) throw new Error(`admin sign-in: ${login.status} ${JSON.stringify(login.body)}`);
    const put = await apiCall(page, 'PUT', '/api/v1/settings/face', {
      school_start: '23:59',
      late_grace_minutes: 0,
      threshold: 0.5,
      margin: 0.08,
      retention_days: 30,
      challenges: ['blink'],
    });
    if (put.status !== 200) throw new Error(`face settings: ${put.status} ${JSON.stringify(put.body)}`);
    const consent = await apiCall(page, 'PUT', `/api/v1/students/${A}/face-consent`, {
      guardian_name: 'Orang Tua Bench',
      relationship: 'guardian',
      method: 'paper',
      given_on: new Date(Date.now() + 7 * 3600_000).toISOString().slice(0, 10),
      reference: '',
    });
    if (consent.status !== 200) throw new Error(`consent: ${consent.status} ${JSON.stringify(consent.body)}`);
    const kiosk = await apiCall(page, 'POST', '/api/v1/settings/kiosks', { name: 'Gerbang bench' });
    if (kiosk.status !== 201) throw new Error(`kiosk: ${kiosk.status} ${JSON.stringify(kiosk.body)}`);
    const token = kiosk.body.token;

    console.log(`Gate kiosk: face in view → answer, ${SCANS} answers each (after one warm-up), blink challenge only; floors ${FLOOR_RUNS} runs each, the same run`);
    const eng = await engineFloor(admin, A);
    if (eng.samples.length < 3) throw new Error(`only ${eng.samples.length} good frames for A's enrolment`);
    const model = await page.evaluate(async (u) => (await import(u)).FACE_MODEL, eng.engineURL);
    const enrol = await apiCall(page, 'POST', `/api/v1/students/${A}/face-enrolments`, { model, embeddings: eng.samples });
    if (enrol.status >= 300) throw new Error(`enrol A: ${enrol.status} ${JSON.stringify(enrol.body).slice(0, 300)}`);
    const srv = await serverFloor(admin, token, eng.samples[0], model, FLOOR_RUNS);
    await admin.close();

    const det = median(eng.plain);
    const detEmb = median(eng.emb);
    const chal = median(srv.map((r) => r.challenge));
    const scan = median(srv.map((r) => r.scan));
    // What any kiosk needs at least from a face appearing to its answer, the blink aside: two
    // frames to see a frontal face, the challenge's round trip, one frame to see the eyes open
    // again, the capture frame with the embedding, the scan's round trip.
    // What any kiosk needs at least from a face appearing to its answer, the blink aside: two
    // frames to see a frontal face and the challenge's round trip (idle → challenge), one frame
    // to see the eyes open again (the end of the challenge), the capture frame with the
    // embedding and the scan's round trip (checking → result).
    const fl = { det, chal, scan, idle: 2 * det + chal, blink: det, checking: detEmb + scan, total: 3 * det + detEmb + chal + scan };
    console.log(`\nFloors (engine ${eng.backend}, loaded in ${ms(eng.load, 0)}; ${eng.faces}/${eng.plain.length} plain frames found one face):`);
    console.log(`  ${''.padEnd(40)}${'median'.padStart(9)}${'p90'.padStart(9)}`);
    console.log(`  ${'detect one frame (mesh + iris)'.padEnd(40)}${ms(det, 9)}${ms(p90(eng.plain), 9)}  the engine's own figure ${ms(median(eng.plainEngine), 0)}`);
    console.log(`  ${'detect one frame with the embedding'.padEnd(40)}${ms(detEmb, 9)}${ms(p90(eng.emb), 9)}  (+ faceres, antispoof, liveness)`);
    console.log(`  ${'POST /face/challenge from a page'.padEnd(40)}${ms(chal, 9)}${ms(p90(srv.map((r) => r.challenge)), 9)}`);
    console.log(`  ${'POST /face/scan from a page'.padEnd(40)}${ms(scan, 9)}${ms(p90(srv.map((r) => r.scan)), 9)}  A's embedding, a valid blink: ${count(srv, 'outcome')}`);
    console.log(`  floor of an answer = 3 × detect + detect with embedding + challenge + scan = ${ms(fl.total, 0)}`);

    const runA = await kioskRun(browserA, baseURL, token, 'a', SCANS);
    await browserA.close();
    const browserB = await cameraBrowser('b-blink.y4m');
    browsers.push(browserB);
    const runB = await kioskRun(browserB, baseURL, token, 'b', SCANS);
    await browserB.close();

    printKiosk('Person A (enrolled), a-blink.y4m', runA, fl);
    printKiosk('Person B (not enrolled), b-blink.y4m', runB, fl);
    console.log(
      `\n(The clip blinks on its own schedule: ${FRAME_MS} ms frames, a ${LOOP_MS} ms loop whose last 600 ms close, shut and open the eyes, so ` +
        `"challenge → checking" waits 0–${LOOP_MS} ms for the next usable blink whatever the kiosk does (at least until the eyes open again: 0–${LOOP_MS - FRAME_MS} ms). ` +
        `The wait runs from the challenge appearing to the clip's half-open frame, found by the page itself in the camera's frames; own time = data-millis − wait, ` +
        `the time for a person who blinks at once. kiosk-status shows "checking" from the passed blink on, so the capture frame counts there. ` +
        `The floors: detection in a page where nothing else runs, the round trips straight from a page; the floor of an answer leaves out the kiosk's ` +
        `pauses between idle frames (60 ms) and the wait for a fresh camera frame. BENCH_SCANS, BENCH_FLOOR_RUNS set the counts; BENCH_DEBUG=1 keeps the pages' records in test-results/.)`,
    );
  } catch (err) {
    failed = true;
    console.error(`bench: ${err?.stack ?? err}`);
  } finally {
    await cleanup();
  }
  process.exit(failed ? 1 : 0);
}

await main();
