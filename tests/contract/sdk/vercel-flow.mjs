// A full flow with the official Vercel Sandbox SDK (@vercel/sandbox) against Sandbar's Vercel
// contract server: if the pinned SDK can do all of this, the server speaks the dialect.
// Environment: CONTRACT_BASE_URL (http://127.0.0.1:PORT) and CONTRACT_API_KEY. The SDK's base
// URL is fixed (https://vercel.com/api), so its fetch option maps it to the server's root.
// The interactive PTY is driven with globalThis.WebSocket (run-sdk.sh enables it on Node 20).
// One line per step; exits non-zero on the first failure.
import { Sandbox, Snapshot } from '@vercel/sandbox';

const base = process.env.CONTRACT_BASE_URL?.replace(/\/$/, '');
const apiKey = process.env.CONTRACT_API_KEY;
if (!base || !apiKey) {
  console.error('FAIL setup: CONTRACT_BASE_URL and CONTRACT_API_KEY must be set');
  process.exit(2);
}
if (typeof globalThis.WebSocket !== 'function') {
  console.error('FAIL setup: no global WebSocket (Node 22, or Node 20 with --experimental-websocket)');
  process.exit(2);
}

const teamId = 'team_contract';
const projectId = 'prj_contract';
const creds = {
  token: apiKey,
  teamId,
  projectId,
  fetch: (url, init) => fetch(String(url).replace('https://vercel.com/api', base), init),
};

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
    console.log(`FAIL ${name} (${Date.now() - t0} ms): ${err?.stack || err}${err?.json ? ` ${JSON.stringify(err.json)}` : ''}`);
    throw err;
  }
}

// The contract server's admin API (absent on the real service).
async function addFault(rule) {
  const res = await fetch(`${base}/_contract/faults`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ rules: [rule] }),
  });
  assert(res.ok, `admin API refused the fault rule: ${res.status}`);
}
async function requestCount(route) {
  const state = await (await fetch(`${base}/_contract/state`)).json();
  return state.requests[route] ?? 0;
}

// A raw call of the API, as the SDK would make it.
async function api(method, path, { body, token = apiKey, query = `teamId=${teamId}` } = {}) {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(`${base}${path}${query ? `?${query}` : ''}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, type: res.headers.get('content-type'), text, json };
}

const run = `${process.pid}-${Date.now()}`;
const name = `flow-${run}`;
const tags = { 'sandbar.test': 'vercel-flow', run };
let sandbox;
let other;

try {
  await step('create with resources, ports, env, tags and a network policy', async () => {
    sandbox = await Sandbox.create({
      ...creds,
      name,
      resources: { vcpus: 1 },
      timeout: 120_000,
      ports: [3000],
      env: { FLOW_VAR: 'flow-value' },
      tags,
      networkPolicy: 'deny-all',
    });
    cleanups.push(() => sandbox.delete().catch(() => undefined));
    assert(sandbox.name === name, `name ${sandbox.name}`);
    assert(sandbox.status === 'running', `status ${sandbox.status}`);
    assert(sandbox.vcpus === 1 && sandbox.memory === 2048, `resources ${sandbox.vcpus} ${sandbox.memory}`);
    assert(sandbox.persistent === true, 'not persistent by default');
    assert(sandbox.cwd === '/vercel/sandbox', `cwd ${sandbox.cwd}`);
    assert(sandbox.timeout === 120_000, `timeout ${sandbox.timeout}`);
    assert(sandbox.tags?.run === run, `tags ${JSON.stringify(sandbox.tags)}`);
    assert(sandbox.networkPolicy === 'deny-all', `networkPolicy ${JSON.stringify(sandbox.networkPolicy)}`);
    const route = sandbox.routes.find((r) => r.port === 3000);
    assert(route && route.subdomain.endsWith('-3000'), `routes ${JSON.stringify(sandbox.routes)}`);
    assert(sandbox.domain(3000) === `https://${route.subdomain}.vercel.run`, `domain ${sandbox.domain(3000)}`);
    return `${sandbox.name} session ${sandbox.currentSession().sessionId}`;
  });

  await step('runCommand: output, env and exit code', async () => {
    const echo = await sandbox.runCommand('echo', ['hello-vercel']);
    assert(echo.exitCode === 0, `exit ${echo.exitCode}`);
    assert((await echo.stdout()) === 'hello-vercel\n', `stdout ${JSON.stringify(await echo.stdout())}`);
    const r = await sandbox.runCommand({
      cmd: 'sh',
      args: ['-c', 'echo "$FLOW_VAR"; echo "$CALL_VAR"; echo to-stderr >&2; printf "caf\\303\\251\\n"'],
      env: { CALL_VAR: 'call-value' },
    });
    const out = await r.stdout();
    assert(r.exitCode === 0, `exit ${r.exitCode}`);
    assert(out.includes('flow-value') && out.includes('call-value'), `env missing: ${JSON.stringify(out)}`);
    assert(out.includes('café'), `UTF-8 output ${JSON.stringify(out)}`);
    assert((await r.stderr()) === 'to-stderr\n', `stderr ${JSON.stringify(await r.stderr())}`);
    assert(typeof r.durationMs === 'number', 'no durationMs');
  });

  await step('runCommand exit code 3', async () => {
    const r = await sandbox.runCommand('sh', ['-c', 'echo failing; exit 3']);
    assert(r.exitCode === 3, `exit ${r.exitCode}`);
    return `exit ${r.exitCode}`;
  });

  await step('detached command: logs() follow it, wait() ends it', async () => {
    const d = await sandbox.runCommand({
      cmd: 'sh',
      args: ['-c', 'for i in 1 2 3; do echo line-$i; sleep 0.1; done; echo err-line >&2; exit 5'],
      cwd: '/tmp',
      detached: true,
    });
    assert(d.exitCode === null, `detached exitCode ${d.exitCode}`);
    const lines = [];
    for await (const log of d.logs()) lines.push(log);
    const stdout = lines.filter((l) => l.stream === 'stdout').map((l) => l.data).join('');
    assert(stdout === 'line-1\nline-2\nline-3\n', `logs ${JSON.stringify(lines)}`);
    assert(lines.some((l) => l.stream === 'stderr' && l.data.includes('err-line')), 'no stderr line');
    const done = await d.wait();
    assert(done.exitCode === 5, `exit ${done.exitCode}`);
    const again = await sandbox.getCommand(d.cmdId);
    assert(again.cmdId === d.cmdId && again.cwd === '/tmp', `getCommand ${JSON.stringify(again.cwd)}`);
    return `${lines.length} log lines, exit ${done.exitCode}`;
  });

  await step('kill a running command', async () => {
    const k = await sandbox.runCommand({ cmd: 'sleep', args: ['30'], detached: true });
    await k.kill('SIGKILL');
    const done = await k.wait();
    assert(done.exitCode === 137, `exit after SIGKILL ${done.exitCode}`);
    return `exit ${done.exitCode}`;
  });

  await step('writeFiles, modes and readFileToBuffer round trip', async () => {
    const script = '#!/bin/sh\necho script-ran\n';
    await sandbox.writeFiles([
      { path: 'work/hello.txt', content: Buffer.from('hello from the flow\n') },
      { path: 'work/run.sh', content: script, mode: 0o755 },
      { path: '/tmp/abs.txt', content: 'absolute' },
    ]);
    const back = await sandbox.readFileToBuffer({ path: 'work/hello.txt' });
    assert(back?.toString() === 'hello from the flow\n', `read ${JSON.stringify(back?.toString())}`);
    const abs = await sandbox.readFileToBuffer({ path: 'abs.txt', cwd: '/tmp' });
    assert(abs?.toString() === 'absolute', `read /tmp ${JSON.stringify(abs?.toString())}`);
    const ran = await sandbox.runCommand('sh', ['-c', './work/run.sh && stat -c %a work/run.sh work/hello.txt']);
    const out = await ran.stdout();
    assert(ran.exitCode === 0 && out === 'script-ran\n755\n644\n', `script ${JSON.stringify(out)} ${ran.exitCode}`);
    const missing = await sandbox.readFileToBuffer({ path: 'work/no-such-file' });
    assert(missing === null, 'a missing file was not null');
  });

  await step('mkDir is not recursive and refuses what exists', async () => {
    await sandbox.mkDir('made');
    const test = await sandbox.runCommand('test', ['-d', 'made']);
    assert(test.exitCode === 0, 'made is no folder');
    for (const path of ['made', 'no/such/parent']) {
      let status;
      try {
        await sandbox.mkDir(path);
      } catch (err) {
        status = err?.response?.status;
      }
      assert(status === 400, `mkDir ${path}: status ${status}`);
    }
  });

  await step('extendTimeout, with one 503 that the SDK retries', async () => {
    const session = sandbox.currentSession();
    const before = session.timeout;
    await sandbox.extendTimeout(60_000);
    assert(sandbox.currentSession().timeout === before + 60_000, `timeout ${sandbox.currentSession().timeout}`);
    const route = 'POST /v2/sandboxes/sessions/{sessionId}/extend-timeout';
    const calls = await requestCount(route);
    await addFault({
      method: 'POST',
      path: `/v2/sandboxes/sessions/${session.sessionId}/extend-timeout`,
      fault: '503',
      times: 1,
    });
    await sandbox.extendTimeout(1_000);
    assert(sandbox.currentSession().timeout === before + 61_000, `timeout ${sandbox.currentSession().timeout}`);
    const after = await requestCount(route);
    assert(after - calls === 2, `${after - calls} calls for one extendTimeout with a 503`);
    return `timeout ${sandbox.currentSession().timeout} ms, 503 then 200`;
  });

  await step('interactive PTY over the WebSocket', async () => {
    const { url, token } = await sandbox.openInteractive();
    assert(url.startsWith('ws://') && token, `interactive ${url}`);
    const health = await fetch(new URL('/health', url.replace(/^ws/, 'http')));
    assert(health.ok, `health ${health.status}`);
    const refused = await fetch(`${url.replace(/^ws/, 'http')}?token=wrong`);
    assert(refused.status === 401, `wrong token: ${refused.status}`);
    const bad = new globalThis.WebSocket(`${url}?token=wrong`);
    const badOpened = await new Promise((resolve) => {
      bad.addEventListener('open', () => resolve(true));
      bad.addEventListener('error', () => resolve(false));
      bad.addEventListener('close', () => resolve(false));
    });
    assert(!badOpened, 'a WebSocket with a wrong token was opened');
    const ws = new globalThis.WebSocket(`${url}?token=${encodeURIComponent(token)}`);
    ws.binaryType = 'arraybuffer';
    let output = '';
    const texts = [];
    const closed = new Promise((resolve, reject) => {
      ws.addEventListener('close', (e) => resolve(e.code));
      ws.addEventListener('error', () => reject(new Error('WebSocket error')));
      setTimeout(() => reject(new Error(`no exit; output ${JSON.stringify(output.slice(-300))}`)), 15000);
    });
    ws.addEventListener('message', (e) => {
      if (typeof e.data === 'string') texts.push(JSON.parse(e.data));
      else output += Buffer.from(e.data).toString('utf8');
    });
    await new Promise((resolve, reject) => {
      ws.addEventListener('open', resolve);
      ws.addEventListener('error', reject);
    });
    ws.send(
      JSON.stringify({
        type: 'start',
        command: 'sh',
        args: [],
        env: ['TERM=xterm-256color', 'PTY_VAR=pty-value'],
        cwd: '/vercel/sandbox',
        cols: 80,
        rows: 24,
      }),
    );
    ws.send(JSON.stringify({ type: 'resize', cols: 100, rows: 40 }));
    ws.send(new TextEncoder().encode('stty size; echo hi-$PTY_VAR; exit 7\r'));
    const code = await closed;
    assert(output.includes('hi-pty-value'), `output ${JSON.stringify(output.slice(-300))}`);
    assert(output.includes('40 100'), `stty size after resize: ${JSON.stringify(output.slice(-300))}`);
    const exit = texts.find((t) => t.type === 'exit');
    assert(exit?.code === 7, `exit frame ${JSON.stringify(texts)}`);
    return `exit ${exit.code}, close ${code}`;
  });

  let snapshotId;
  await step('snapshot stops the session; Snapshot.get; the next call resumes', async () => {
    const snap = await sandbox.snapshot({ expiration: 0 });
    snapshotId = snap.snapshotId;
    assert(snap.status === 'created' && snap.sizeBytes > 0, `snapshot ${snap.status} ${snap.sizeBytes}`);
    assert(sandbox.currentSession().status === 'stopped', `session ${sandbox.currentSession().status}`);
    const got = await Snapshot.get({ ...creds, snapshotId });
    assert(got.snapshotId === snapshotId && got.sourceSessionId === snap.sourceSessionId, 'Snapshot.get');
    const before = sandbox.currentSession().sessionId;
    const r = await sandbox.runCommand('cat', ['work/hello.txt']); // 410, resume, again
    assert((await r.stdout()) === 'hello from the flow\n', 'files lost over the snapshot');
    assert(sandbox.currentSession().sessionId !== before, 'no new session after the snapshot');
    return `${snapshotId} ${snap.sizeBytes} bytes`;
  });

  await step('Snapshot delete', async () => {
    const snap = await Snapshot.get({ ...creds, snapshotId });
    await snap.delete();
    const gone = await Snapshot.get({ ...creds, snapshotId });
    assert(gone.status === 'deleted', `status ${gone.status}`);
  });

  await step('stop keeps a persistent sandbox in a snapshot; Sandbox.get resume', async () => {
    const stopped = await sandbox.stop();
    assert(stopped.status === 'stopped', `stop ${stopped.status}`);
    assert(stopped.snapshot?.id, 'a persistent stop kept no snapshot');
    assert(stopped.activeCpuDurationMs > 0 && stopped.networkTransfer?.egress > 0, 'usage counters did not grow');
    const sameNoResume = await Sandbox.get({ ...creds, name, resume: false });
    assert(sameNoResume.status === 'stopped', `get without resume: ${sameNoResume.status}`);
    let resumedFired = false;
    sandbox = await Sandbox.get({ ...creds, name, resume: true, onResume: () => (resumedFired = true) });
    assert(sandbox.status === 'running' && resumedFired, `resume ${sandbox.status} ${resumedFired}`);
    const r = await sandbox.runCommand('cat', ['work/hello.txt']);
    assert((await r.stdout()) === 'hello from the flow\n', 'files lost over stop and resume');
    return `cpu ${stopped.activeCpuDurationMs} ms, egress ${stopped.networkTransfer.egress} B`;
  });

  await step('Sandbox.list: filters and paging through toArray with limit 1', async () => {
    other = await Sandbox.create({ ...creds, name: `${name}-other`, tags: { 'sandbar.test': 'vercel-flow', run: `${run}-other` } });
    cleanups.push(() => other.delete().catch(() => undefined));
    const page = await Sandbox.list({ ...creds, limit: 1, namePrefix: name });
    assert(page.sandboxes.length === 1 && page.pagination.next !== null, `first page ${JSON.stringify(page.pagination)}`);
    const all = await page.toArray();
    const names = all.map((s) => s.name).sort();
    assert(names.length === 2 && names[0] === name && names[1] === `${name}-other`, `paged ${JSON.stringify(names)}`);
    const byTag = await Sandbox.list({ ...creds, tags: { run } });
    assert(byTag.sandboxes.length === 1 && byTag.sandboxes[0].name === name, `by tag ${byTag.sandboxes.length}`);
    return `${names.length} over pages of 1`;
  });

  await step('fork copies files and configuration', async () => {
    const res = await api('POST', `/v2/sandboxes/${name}/fork`, {
      query: `teamId=${teamId}&projectId=${projectId}`,
      body: { name: `${name}-fork` },
    });
    assert(res.status === 200 && res.json.sandbox.name === `${name}-fork`, `fork ${res.status} ${res.text}`);
    const fork = await Sandbox.get({ ...creds, name: `${name}-fork` });
    const r = await fork.runCommand('cat', ['work/hello.txt']);
    assert((await r.stdout()) === 'hello from the flow\n', 'the fork lacks the files');
    assert(fork.vcpus === 1 && fork.tags.run === run, 'the fork lacks the configuration');
    await fork.delete();
  });

  await step('the session timeout is enforced', async () => {
    const short = await Sandbox.create({ ...creds, timeout: 1500, tags: { 'sandbar.test': 'vercel-flow' } });
    cleanups.push(() => short.delete().catch(() => undefined));
    const t0 = Date.now();
    let status = short.status;
    while (status !== 'stopped' && Date.now() - t0 < 8000) {
      await new Promise((r) => setTimeout(r, 250));
      status = (await Sandbox.get({ ...creds, name: short.name })).status;
    }
    assert(status === 'stopped', `still ${status} after its timeout`);
    const stale = await api('POST', `/v2/sandboxes/sessions/${short.currentSession().sessionId}/cmd`, {
      body: { command: 'true', args: [], env: {}, sudo: false },
    });
    assert(stale.status === 410 && stale.json?.error?.code === 'sandbox_stopped', `cmd when stopped ${stale.status} ${stale.text}`);
    await short.delete();
    return `stopped after ${Date.now() - t0} ms`;
  });

  await step('fault lost-reply on create: the retry meets the name, the sandbox is found by tag', async () => {
    const token = `token-${run}`;
    await addFault({ method: 'POST', path: '/v3/sandboxes', fault: 'lost-reply', times: 1 });
    let outcome;
    try {
      const s = await Sandbox.create({ ...creds, name: token, tags: { 'sandbar.test': 'vercel-flow', token } });
      outcome = `created ${s.name}`;
    } catch (err) {
      outcome = `status ${err?.response?.status}`;
      assert(err?.response?.status === 409, `create failed with ${err}`);
    }
    const found = await (await Sandbox.list({ ...creds, tags: { token } })).toArray();
    assert(found.length === 1 && found[0].name === token, `${found.length} sandboxes carry the token`);
    await (await Sandbox.get({ ...creds, name: token })).delete();
    return outcome;
  });

  await step('raw dialect: error bodies, NDJSON content type', async () => {
    const none = await api('GET', '/v2/sandboxes', { token: '' });
    assert(none.status === 403 && none.json?.error?.code === 'forbidden', `no token ${none.status} ${none.text}`);
    const wrong = await api('GET', '/v2/sandboxes', { token: 'wrong' });
    assert(wrong.status === 403 && wrong.json?.error?.code === 'forbidden', `wrong token ${wrong.status}`);
    const noTeam = await api('GET', '/v2/sandboxes', { query: '' });
    assert(noTeam.status === 400 && noTeam.json?.error?.code === 'bad_request', `no teamId ${noTeam.status}`);
    const missing = await api('GET', '/v2/sandboxes/no-such-sandbox');
    assert(missing.status === 404 && missing.json?.error?.code === 'not_found', `missing ${missing.status}`);
    const tooMany = await api('POST', '/v3/sandboxes', {
      body: { projectId, tags: { a: '1', b: '2', c: '3', d: '4', e: '5', f: '6' } },
    });
    assert(tooMany.status === 400, `six tags ${tooMany.status}`);
    const cmd = await api('POST', `/v2/sandboxes/sessions/${sandbox.currentSession().sessionId}/cmd`, {
      body: { command: 'echo', args: ['raw'], env: {}, sudo: false, wait: true, logs: true },
    });
    assert(cmd.status === 200 && cmd.type === 'application/x-ndjson', `cmd ${cmd.status} ${cmd.type}`);
    const lines = cmd.text.trim().split('\n').map((l) => JSON.parse(l));
    assert(lines[0].command.exitCode === null && lines.at(-1).command.exitCode === 0, `lines ${cmd.text}`);
    assert(lines.some((l) => l.stream === 'stdout' && l.data === 'raw\n'), `no output line: ${cmd.text}`);
  });

  await step('delete', async () => {
    await other.delete();
    await sandbox.delete();
    let status;
    try {
      await Sandbox.get({ ...creds, name });
    } catch (err) {
      status = err?.response?.status;
    }
    assert(status === 404, `deleted sandbox: ${status}`);
    cleanups.length = 0;
  });
} catch {
  // The failing step has already printed its line.
} finally {
  for (const cleanup of cleanups) await cleanup();
}

console.log(`${failures ? 'FAIL' : 'PASS'} vercel flow in ${Date.now() - started} ms`);
// Exit once stdout has drained (a pipe loses what process.exit() cuts off).
const code = failures ? 1 : 0;
process.stdout.write('', () => process.exit(code));
