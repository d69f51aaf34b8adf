// A full flow with the official Daytona TypeScript SDK against Sandbar's Daytona
// contract server: if the pinned SDK can do all of this, the server speaks the dialect.
// Environment: DAYTONA_API_URL (http://127.0.0.1:PORT/api) or CONTRACT_BASE_URL, DAYTONA_API_KEY
// (dtn_...) or CONTRACT_API_KEY,
// optionally DAYTONA_TARGET. One line per step; exits non-zero on the first failure.
// A "minute" of auto-stop lasts 1 s in this run, so the flow can watch an idle sandbox stop:
// contract-server-env: SANDBAR_CONTRACT_DAYTONA_MINUTE_MS=1000
import { createHash, randomBytes } from 'node:crypto';
import { Daytona, DaytonaNotFoundError } from '@daytonaio/sdk';
import WebSocket from 'ws'; // the SDK's own WebSocket client

// run-sdk.sh hands over CONTRACT_BASE_URL/CONTRACT_API_KEY; the SDK's own variables win.
const base = process.env.CONTRACT_BASE_URL;
const apiUrl = process.env.DAYTONA_API_URL || (base ? `${base.replace(/\/$/, '')}/api` : undefined);
const apiKey = process.env.DAYTONA_API_KEY || process.env.CONTRACT_API_KEY;
const target = process.env.DAYTONA_TARGET || 'us';
if (!apiUrl || !apiKey) {
  console.error('FAIL setup: DAYTONA_API_URL and DAYTONA_API_KEY must be set');
  process.exit(2);
}

const started = Date.now();
let failures = 0;
const cleanups = [];

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

async function step(name, fn) {
  const t0 = Date.now();
  try {
    const detail = await fn();
    console.log(`ok   ${name} (${Date.now() - t0} ms)${detail ? ` ${detail}` : ''}`);
  } catch (err) {
    failures++;
    console.log(`FAIL ${name} (${Date.now() - t0} ms): ${err?.stack || err}`);
    throw err;
  }
}

// Resolves when `predicate(text)` holds for the output gathered so far.
function outputWaiter() {
  let text = '';
  const waiters = [];
  return {
    onData(bytes) {
      text += Buffer.from(bytes).toString('utf8');
      for (const w of [...waiters]) {
        if (w.predicate(text)) {
          waiters.splice(waiters.indexOf(w), 1);
          clearTimeout(w.timer);
          w.resolve(text);
        }
      }
    },
    text: () => text,
    until(predicate, what, ms = 10000) {
      if (predicate(text)) return Promise.resolve(text);
      return new Promise((resolve, reject) => {
        const w = { predicate, resolve };
        w.timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(w), 1);
          reject(new Error(`timed out waiting for ${what}; output so far: ${JSON.stringify(text.slice(-400))}`));
        }, ms);
        waiters.push(w);
      });
    },
  };
}

// The contract server's admin API (same origin as the API; absent on the real service).
const adminBase = new URL(apiUrl).origin;
async function addFault(rule) {
  const res = await fetch(`${adminBase}/_contract/faults`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ rules: [rule] }),
  });
  assert(res.ok, `admin API refused the fault rule: ${res.status}`);
}

const sha = (buf) => createHash('sha256').update(buf).digest('hex');

const daytona = new Daytona({ apiUrl, apiKey, target });
const run = `flow-${process.pid}-${Date.now()}`;
let sandbox;
let other;

try {
  await step('create sandbox with labels', async () => {
    sandbox = await daytona.create(
      {
        labels: { 'sandbar.test': 'daytona-flow', run },
        envVars: { FLOW_VAR: 'flow-value' },
        autoStopInterval: 15,
        networkBlockAll: true,
        resources: { cpu: 1, memory: 1, disk: 3 },
      },
      { timeout: 30 },
    );
    cleanups.push(() => sandbox.delete().catch(() => undefined));
    assert(sandbox.id, 'no sandbox id');
    assert(sandbox.state === 'started', `state ${sandbox.state}`);
    assert(sandbox.labels?.run === run, `labels ${JSON.stringify(sandbox.labels)}`);
    assert(sandbox.cpu === 1 && sandbox.memory === 1 && sandbox.disk === 3, 'resources not echoed');
    assert(sandbox.autoStopInterval === 15, `autoStopInterval ${sandbox.autoStopInterval}`);
    assert(sandbox.toolboxProxyUrl?.startsWith('http'), `toolboxProxyUrl ${sandbox.toolboxProxyUrl}`);
    return `${sandbox.id} toolbox ${sandbox.toolboxProxyUrl}`;
  });

  await step('create a second sandbox with other labels', async () => {
    other = await daytona.create({ labels: { 'sandbar.test': 'daytona-flow', run: `${run}-other` } });
    cleanups.push(() => other.delete().catch(() => undefined));
    return other.id;
  });

  await step('list by labels', async () => {
    const found = [];
    for await (const s of daytona.list({ labels: { run } })) found.push(s.id);
    assert(found.length === 1 && found[0] === sandbox.id, `found ${JSON.stringify(found)}`);
    const all = [];
    for await (const s of daytona.list({ labels: { 'sandbar.test': 'daytona-flow' }, limit: 1 })) all.push(s.id);
    assert(all.includes(sandbox.id) && all.includes(other.id), `paged list ${JSON.stringify(all)}`);
    return `${found.length} by run label, ${all.length} over pages of 1`;
  });

  await step('get by id and by name', async () => {
    const byId = await daytona.get(sandbox.id);
    assert(byId.id === sandbox.id && byId.env?.FLOW_VAR === 'flow-value', 'get by id');
    const byName = await daytona.get(sandbox.name);
    assert(byName.id === sandbox.id, 'get by name');
  });

  await step('executeCommand output and exit code', async () => {
    const r = await sandbox.process.executeCommand('echo hello-daytona; echo "$FLOW_VAR"; echo "$CALL_VAR"', undefined, {
      CALL_VAR: 'call-value',
    });
    assert(r.exitCode === 0, `exit ${r.exitCode}`);
    assert(r.result.includes('hello-daytona'), `result ${JSON.stringify(r.result)}`);
    assert(r.result.includes('flow-value'), `sandbox env missing: ${JSON.stringify(r.result)}`);
    assert(r.result.includes('call-value'), `call env missing: ${JSON.stringify(r.result)}`);
  });

  await step('executeCommand failing command', async () => {
    const r = await sandbox.process.executeCommand('sh -c "echo to-stderr >&2; exit 3"');
    assert(r.exitCode === 3, `exit ${r.exitCode}`);
    assert(r.result.includes('to-stderr'), `result ${JSON.stringify(r.result)}`);
  });

  await step('executeCommand timeout', async () => {
    const t0 = Date.now();
    let r;
    try {
      r = await sandbox.process.executeCommand('sleep 30', undefined, undefined, 1);
    } catch (err) {
      assert(Date.now() - t0 < 10000, 'timeout not enforced');
      return `error: ${String(err.message).slice(0, 80)}`;
    }
    assert(r.exitCode !== 0 && Date.now() - t0 < 10000, `exit ${r.exitCode}`);
    return `exit ${r.exitCode}`;
  });

  const ptyId = `flow-pty-${process.pid}`;
  let firstOut;
  await step('createPty, sendInput, output', async () => {
    firstOut = outputWaiter();
    const pty = await sandbox.process.createPty({
      id: ptyId,
      cols: 80,
      rows: 24,
      envs: { PTY_VAR: 'pty-value' },
      onData: firstOut.onData,
    });
    await pty.sendInput('echo "pty-$PTY_VAR"\n');
    await firstOut.until((t) => t.includes('pty-pty-value'), 'pty echo');
    await pty.resize(100, 40);
    await pty.sendInput('stty size\n');
    await firstOut.until((t) => t.includes('40 100'), 'stty size 40 100');
    const info = await sandbox.process.getPtySessionInfo(ptyId);
    assert(info.cols === 100 && info.rows === 40 && info.active === true, `info ${JSON.stringify(info)}`);
    const list = await sandbox.process.listPtySessions();
    assert(list.some((s) => s.id === ptyId), `list ${JSON.stringify(list)}`);
    await pty.disconnect();
    return 'stty size after resize: 40 100';
  });

  await step('connectPty reattach and exit code from the close', async () => {
    const out = outputWaiter();
    const pty = await sandbox.process.connectPty(ptyId, { onData: out.onData });
    await pty.sendInput('echo reattached-$((6*7))\n');
    await out.until((t) => t.includes('reattached-42'), 'reattach echo');
    await pty.sendInput('exit 7\n');
    const result = await pty.wait();
    assert(result.exitCode === 7, `exit ${JSON.stringify(result)}`);
    return `exit ${result.exitCode}`;
  });

  await step('two clients on one PTY both see its output', async () => {
    const id = `${ptyId}-two`;
    const a = outputWaiter();
    const b = outputWaiter();
    const first = await sandbox.process.createPty({ id, onData: a.onData });
    await first.sendInput('echo first-ready\n');
    await a.until((t) => t.includes('first-ready'), 'first client');
    const second = await sandbox.process.connectPty(id, { onData: b.onData });
    await first.sendInput('echo shared-$((40+2))\n');
    await Promise.all([
      a.until((t) => t.includes('shared-42'), 'output at the first client'),
      b.until((t) => t.includes('shared-42'), 'output at the second client'),
    ]);
    await second.sendInput('exit 0\n');
    const [ra, rb] = await Promise.all([first.wait(), second.wait()]);
    assert(ra.exitCode === 0 && rb.exitCode === 0, `exits ${JSON.stringify([ra, rb])}`);
  });

  await step('PTY killed through the API', async () => {
    const out = outputWaiter();
    const pty = await sandbox.process.createPty({ id: `${ptyId}-kill`, onData: out.onData });
    await pty.sendInput('echo alive\n');
    await out.until((t) => t.includes('alive'), 'second pty');
    await pty.kill();
    const result = await pty.wait();
    assert(result.exitCode !== 0, `exit after kill ${JSON.stringify(result)}`);
    let gone = false;
    try {
      const info = await sandbox.process.getPtySessionInfo(`${ptyId}-kill`);
      gone = info.active === false;
    } catch {
      gone = true;
    }
    assert(gone, 'killed PTY still active');
    return `exit ${result.exitCode}`;
  });

  await step('fault ws-close cuts a PTY WebSocket mid-session, the PTY survives', async () => {
    const id = `${ptyId}-cut`;
    await addFault({
      method: 'GET',
      path: `/toolbox/${sandbox.id}/process/pty/create-connect`,
      fault: 'ws-close:400',
      times: 1,
    });
    const out = outputWaiter();
    const pty = await sandbox.process.createPty({ id, onData: out.onData });
    await pty.sendInput('echo before-cut\n');
    await out.until((t) => t.includes('before-cut'), 'output before the cut');
    const result = await Promise.race([
      pty.wait().catch((err) => ({ error: String(err) })),
      new Promise((resolve) => setTimeout(() => resolve('still open'), 5000)),
    ]);
    assert(result !== 'still open', 'the socket was not closed by the fault');
    assert(result.exitCode === undefined, `a cut socket reported an exit: ${JSON.stringify(result)}`);
    const info = await sandbox.process.getPtySessionInfo(id);
    assert(info.active, 'the PTY died with its socket');
    const again = outputWaiter();
    const back = await sandbox.process.connectPty(id, { onData: again.onData });
    await back.sendInput('echo after-cut\nexit 0\n');
    const end = await back.wait();
    assert(again.text().includes('after-cut') && end.exitCode === 0, `after reattach ${JSON.stringify(end)}`);
    return `socket closed: ${JSON.stringify(result)}`;
  });

  await step('raw dialect: error bodies of the control plane', async () => {
    const expectError = async (res, status, error) => {
      const body = await res.json();
      assert(res.status === status, `status ${res.status}`);
      assert(body.statusCode === status && body.error === error && body.message, `body ${JSON.stringify(body)}`);
    };
    await expectError(await fetch(`${apiUrl}/sandbox`), 401, 'Unauthorized');
    const auth = { Authorization: `Bearer ${apiKey}` };
    await expectError(await fetch(`${apiUrl}/sandbox/no-such-sandbox`, { headers: auth }), 404, 'Not Found');
    await expectError(
      await fetch(`${apiUrl}/sandbox`, { method: 'POST', headers: { ...auth, 'Content-Type': 'text/plain' }, body: '{}' }),
      400,
      'Bad Request',
    );
    await expectError(
      await fetch(`${apiUrl}/sandbox`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ cpu: 'two' }),
      }),
      400,
      'Bad Request',
    );
  });

  await step('raw dialect: PTY frames without the SDK', async () => {
    const tb = `${sandbox.toolboxProxyUrl.replace(/\/$/, '')}/${sandbox.id}`;
    const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };
    const id = `${ptyId}-raw`;
    const res = await fetch(`${tb}/process/pty`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ id, cols: 90, rows: 30, lazyStart: true, envs: { RAW: 'yes' } }),
    });
    const created = await res.json();
    assert(res.ok && created.sessionId === id, `create ${res.status} ${JSON.stringify(created)}`);
    const frames = [];
    const ws = new WebSocket(`${tb.replace(/^http/, 'ws')}/process/pty/${id}/connect`, { headers });
    const closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
    ws.on('message', (data, isBinary) => {
      frames.push({ isBinary, text: Buffer.from(data).toString() });
      if (frames.length === 1) ws.send('stty size; echo "raw-$RAW"; exit 3\n');
    });
    const end = await closed;
    assert(!frames[0].isBinary && frames[0].text === '{"type":"control","status":"connected"}', `first ${JSON.stringify(frames[0])}`);
    const output = frames.slice(1);
    assert(output.length > 0 && output.every((f) => f.isBinary), 'output not in binary frames');
    const text = output.map((f) => f.text).join('');
    assert(text.includes('30 90') && text.includes('raw-yes'), `output ${JSON.stringify(text.slice(-200))}`);
    const reason = JSON.parse(end.reason);
    assert(end.code === 1000 && reason.exitCode === 3 && reason.exitReason, `close ${end.code} ${end.reason}`);
    return `close ${end.code} ${end.reason}`;
  });

  await step('fs createFolder, upload, download, list, details', async () => {
    await sandbox.fs.createFolder('work', '755');
    await sandbox.fs.uploadFile(Buffer.from('hello from the flow\n'), 'work/hello.txt');
    const back = await sandbox.fs.downloadFile('work/hello.txt');
    assert(back.toString() === 'hello from the flow\n', `downloaded ${JSON.stringify(back.toString())}`);
    const cat = await sandbox.process.executeCommand('cat work/hello.txt');
    assert(cat.result.includes('hello from the flow'), 'exec does not see the upload');
    const list = await sandbox.fs.listFiles('work');
    const entry = list.find((f) => f.name === 'hello.txt');
    assert(entry && entry.size === 20 && entry.isDir === false, `list ${JSON.stringify(list)}`);
    assert(typeof entry.mode === 'string' && entry.permissions && entry.owner !== undefined, 'FileInfo fields');
    const info = await sandbox.fs.getFileDetails('work');
    assert(info.isDir === true, `details ${JSON.stringify(info)}`);
  });

  await step('fs 5 MiB round trip', async () => {
    const big = randomBytes(5 * 1024 * 1024);
    await sandbox.fs.uploadFile(big, 'work/big.bin');
    const back = await sandbox.fs.downloadFile('work/big.bin');
    assert(back.length === big.length && sha(back) === sha(big), `size ${back.length}`);
    return sha(big).slice(0, 16);
  });

  await step('fs deleteFile', async () => {
    await sandbox.fs.deleteFile('work/hello.txt');
    const list = await sandbox.fs.listFiles('work');
    assert(!list.some((f) => f.name === 'hello.txt'), 'file still listed');
    await sandbox.fs.deleteFile('work', true);
    const root = await sandbox.fs.listFiles('.');
    assert(!root.some((f) => f.name === 'work'), 'folder still listed');
    let missing = false;
    try {
      await sandbox.fs.downloadFile('work/big.bin');
    } catch {
      missing = true;
    }
    assert(missing, 'download of a deleted file succeeded');
  });

  await step('labels, autostop, metrics', async () => {
    await sandbox.setLabels({ 'sandbar.test': 'daytona-flow', run, extra: 'yes' });
    assert(sandbox.labels.extra === 'yes', 'labels not replaced');
    await sandbox.setAutostopInterval(30);
    await sandbox.refreshData();
    assert(sandbox.autoStopInterval === 30, `autoStopInterval ${sandbox.autoStopInterval}`);
    const samples = await sandbox.getMetrics(new Date(Date.now() - 3600_000), new Date());
    assert(samples.length > 0, 'no metric samples');
    const last = samples[samples.length - 1];
    assert(last.memTotal > 0 && last.diskTotal > 0, `sample ${JSON.stringify(last)}`);
    return `${samples.length} samples`;
  });

  await step('stop refuses the toolbox, start serves it again', async () => {
    await sandbox.stop();
    assert(sandbox.state === 'stopped', `state ${sandbox.state}`);
    let refused = false;
    try {
      await sandbox.process.executeCommand('true');
    } catch {
      refused = true;
    }
    assert(refused, 'toolbox answered while stopped');
    await sandbox.start();
    assert(sandbox.state === 'started', `state ${sandbox.state}`);
    const r = await sandbox.process.executeCommand('echo back');
    assert(r.exitCode === 0 && r.result.includes('back'), 'exec after start');
  });

  await step('auto-stop after idle minutes, postponed by toolbox activity', async () => {
    // The server counts a "minute" as SANDBAR_CONTRACT_DAYTONA_MINUTE_MS (set by the CTest).
    const minute = Number(process.env.SANDBAR_CONTRACT_DAYTONA_MINUTE_MS || 60000);
    if (minute > 5000) return `skipped: a minute is ${minute} ms here`;
    const idle = await daytona.create({ labels: { 'sandbar.test': 'daytona-flow' }, autoStopInterval: 1 });
    cleanups.push(() => idle.delete().catch(() => undefined));
    const busyUntil = Date.now() + 2 * minute;
    while (Date.now() < busyUntil) {
      await idle.process.executeCommand('true');
      await new Promise((r) => setTimeout(r, minute / 5));
    }
    await idle.refreshData();
    assert(idle.state === 'started', `stopped while busy: ${idle.state}`);
    const t0 = Date.now();
    while (idle.state !== 'stopped' && Date.now() - t0 < 5 * minute) {
      await new Promise((r) => setTimeout(r, minute / 10));
      await idle.refreshData();
    }
    assert(idle.state === 'stopped', `not stopped after idling: ${idle.state}`);
    await idle.delete();
    return `stopped after ${Date.now() - t0} ms idle (minute = ${minute} ms)`;
  });

  await step('fault lost-reply on create: one sandbox, found by its label', async () => {
    const token = `token-${run}`;
    await addFault({ method: 'POST', path: '/api/sandbox', fault: 'lost-reply', times: 1 });
    let failed = false;
    try {
      await daytona.create({ labels: { 'sandbar.test': 'daytona-flow', token } }, { timeout: 10 });
    } catch {
      failed = true;
    }
    assert(failed, 'create answered despite the lost reply');
    const found = [];
    for await (const s of daytona.list({ labels: { token } })) found.push(s);
    assert(found.length === 1, `${found.length} sandboxes carry the token`);
    await found[0].delete();
    return `recovered ${found[0].id}`;
  });

  await step('delete', async () => {
    await other.delete();
    await sandbox.delete();
    let notFound = false;
    try {
      await daytona.get(sandbox.id);
    } catch (err) {
      notFound = err instanceof DaytonaNotFoundError || err?.statusCode === 404;
    }
    assert(notFound, 'deleted sandbox still found');
    cleanups.length = 0;
  });

  await step('wrong API key is refused', async () => {
    const wrong = new Daytona({ apiUrl, apiKey: 'dtn_wrong_key', target });
    let status;
    try {
      for await (const s of wrong.list()) void s;
    } catch (err) {
      status = err?.statusCode;
    } finally {
      await wrong[Symbol.asyncDispose]?.();
    }
    assert(status === 401, `status ${status}`);
    return 'status 401';
  });
} catch {
  // The failing step has already printed its line.
} finally {
  for (const cleanup of cleanups) await cleanup();
  await daytona[Symbol.asyncDispose]?.();
}

console.log(`${failures ? 'FAIL' : 'PASS'} daytona flow in ${Date.now() - started} ms`);
// Exit once stdout has drained (a pipe loses what process.exit() cuts off); the SDK's
// background sockets would otherwise keep the process alive.
const code = failures ? 1 : 0;
process.stdout.write('', () => process.exit(code));
