// A full flow with the official Fly.io Sprites SDK (@fly/sprites) against Sandbar's Sprites
// contract server: if the pinned SDK can do all of this, the server speaks the dialect.
// Environment: CONTRACT_BASE_URL (http://127.0.0.1:PORT) and CONTRACT_API_KEY; with
// SANDBAR_CONTRACT_SPRITES_COLD_MS (the server's warm -> cold delay) under 5000 the flow also
// watches a sprite go cold. The SDK's exec uses globalThis.WebSocket with headers (run-sdk.sh
// enables it on Node 20). One line per step; exits non-zero on the first failure.
// An idle warm sprite goes cold after 1.5 s in this run (30 s by default):
// contract-server-env: SANDBAR_CONTRACT_SPRITES_COLD_MS=1500
import { SpritesClient, APIError, ExecError, FilesystemError } from '@fly/sprites';

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
const coldMs = Number(process.env.SANDBAR_CONTRACT_SPRITES_COLD_MS ?? 30000);

const client = new SpritesClient(apiKey, { baseURL: base });
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

async function rejects(promise, check, what) {
  try {
    await promise;
  } catch (err) {
    const problem = check(err);
    assert(!problem, `${what}: ${problem} (${err?.name}: ${err?.message})`);
    return err;
  }
  throw new Error(`${what}: no error`);
}

// Resolves once `predicate(text)` holds for everything a stream has printed so far.
function waitFor(stream, predicate, what, ms = 5000) {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => {
      stream.off('data', onData);
      reject(new Error(`timed out waiting for ${what}; got ${JSON.stringify(text.slice(-400))}`));
    }, ms);
    const onData = (chunk) => {
      text += chunk.toString();
      if (predicate(text)) {
        clearTimeout(timer);
        stream.off('data', onData);
        resolve(text);
      }
    };
    stream.on('data', onData);
  });
}

function waitForEvent(emitter, event, filter = () => true, ms = 5000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for '${event}'`)), ms);
    const on = (value) => {
      if (!filter(value)) return;
      clearTimeout(timer);
      emitter.off(event, on);
      resolve(value);
    };
    emitter.on(event, on);
  });
}

async function waitUntil(fn, what, ms = 5000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function collect(stream) {
  const messages = [];
  for await (const message of stream) messages.push(message);
  return messages;
}

// The contract server's admin API (absent on the real service).
async function admin(method, path, body) {
  const res = await fetch(`${base}/_contract/${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  assert(res.ok, `admin API ${method} ${path}: ${res.status}`);
  return res.status === 204 ? undefined : res.json();
}

const run = `${process.pid}-${Date.now() % 100000}`;
const prefix = `flow-${run}`;
const name = `${prefix}-main`;
let sprite;

try {
  await step('a bad token is refused with 401', async () => {
    const bad = new SpritesClient('not-the-token', { baseURL: base });
    await rejects(bad.listSprites(), (e) => (e instanceof APIError && e.statusCode === 401 ? '' : 'not a 401 APIError'), 'list');
  });

  await step('create with config, labels and URL settings', async () => {
    sprite = await client.createSprite(name, {
      config: { ramMB: 2048, cpus: 2, region: 'ord', storageGB: 10 },
      environment: { FLOW_VAR: 'flow-value' },
      labels: ['contract', 'flow'],
      urlSettings: { auth: 'public' },
    });
    cleanups.push(() => client.deleteSprite(name).catch(() => undefined));
    assert(sprite.name === name && sprite.id, `sprite ${sprite.name} ${sprite.id}`);
    assert(sprite.status === 'cold', `status ${sprite.status}`);
    assert(sprite.config?.ramMB === 2048 && sprite.config?.cpus === 2 && sprite.config?.storageGB === 10,
      `config ${JSON.stringify(sprite.config)}`);
    assert(sprite.labels.join() === 'contract,flow', `labels ${sprite.labels}`);
    assert(sprite.urlSettings?.auth === 'public', `urlSettings ${JSON.stringify(sprite.urlSettings)}`);
    assert(sprite.url?.startsWith('https://'), `url ${sprite.url}`);
    await rejects(client.createSprite(name), (e) => (e.statusCode === 409 ? '' : `status ${e.statusCode}`), 'duplicate');
    await rejects(client.createSprite('Bad Name!'), (e) => (e.statusCode === 400 ? '' : `status ${e.statusCode}`),
      'bad name');
    return `${sprite.id}`;
  });

  await step('get', async () => {
    const got = await client.getSprite(name);
    assert(got.id === sprite.id && got.organizationName && got.createdAt instanceof Date, `got ${JSON.stringify(got)}`);
    assert(got.environment?.FLOW_VAR === 'flow-value', `environment ${JSON.stringify(got.environment)}`);
  });

  await step('list with a prefix, pages of two', async () => {
    for (const n of ['b', 'c']) {
      await client.createSprite(`${prefix}-${n}`);
      cleanups.push(() => client.deleteSprite(`${prefix}-${n}`).catch(() => undefined));
    }
    const first = await client.listSprites({ prefix, maxResults: 2 });
    assert(first.sprites.length === 2 && first.hasMore && first.nextContinuationToken,
      `first page ${JSON.stringify(first)}`);
    assert(first.cold === 2 && first.running === 0 && first.organizationName, `counts ${JSON.stringify(first)}`);
    const second = await client.listSprites({ prefix, maxResults: 2, continuationToken: first.nextContinuationToken });
    assert(second.sprites.length === 1 && !second.hasMore, `second page ${JSON.stringify(second)}`);
    const names = [...first.sprites, ...second.sprites].map((s) => s.name);
    assert(new Set(names).size === 3 && names.every((n) => n.startsWith(prefix)), `names ${names}`);
    const all = await client.listAllSprites(prefix);
    assert(all.length === 3, `listAllSprites ${all.length}`);
    const none = await client.listSprites({ prefix: `${prefix}-nothing` });
    assert(none.sprites.length === 0 && !none.hasMore, `empty ${JSON.stringify(none)}`);
  });

  await step('update labels and URL settings', async () => {
    const updated = await sprite.update({ labels: ['flow', 'updated'], urlSettings: { auth: 'sprite' } });
    assert(updated.labels.join() === 'flow,updated' && updated.urlSettings.auth === 'sprite',
      `updated ${JSON.stringify(updated)}`);
    await client.updateURLSettings(name, { auth: 'public' });
    const got = await client.getSprite(name);
    assert(got.urlSettings.auth === 'public' && got.labels.join() === 'flow,updated', `got ${JSON.stringify(got)}`);
    await rejects(sprite.update({ urlSettings: { auth: 'nobody' } }), (e) => (e.statusCode === 400 ? '' : `${e.statusCode}`),
      'bad auth');
  });

  await step('resources and network policies', async () => {
    assert((await sprite.getResourcesPolicy()).memory === undefined, 'a memory policy before any was set');
    await sprite.updateResourcesPolicy({ memory: { limitMB: 1024, autoscale: false } });
    const policy = await sprite.getResourcesPolicy();
    assert(policy.memory?.limitMB === 1024 && policy.memory.autoscale === false, `policy ${JSON.stringify(policy)}`);
    await sprite.updateNetworkPolicy({ rules: [{ action: 'allow', domain: 'github.com' }, { action: 'deny', domain: '*' }] });
    const network = await sprite.getNetworkPolicy();
    assert(network.rules?.length === 2 && network.rules[1].action === 'deny', `network ${JSON.stringify(network)}`);
  });

  await step('exec: stdout, stderr, env, cwd and exit codes', async () => {
    const r = await sprite.execFile('sh', ['-c', 'echo "out $FLOW_VAR $EXTRA"; echo err >&2'], { env: { EXTRA: 'x y' } });
    assert(r.exitCode === 0 && r.stdout === 'out flow-value x y\n' && r.stderr === 'err\n', `result ${JSON.stringify(r)}`);
    const words = await sprite.exec('echo hello sprites');
    assert(words.stdout === 'hello sprites\n', `exec ${JSON.stringify(words)}`);
    const failed = await rejects(sprite.execFile('sh', ['-c', 'echo partial; exit 7']),
      (e) => (e instanceof ExecError && e.exitCode === 7 ? '' : `exit ${e.exitCode}`), 'exit 7');
    assert(failed.stdout === 'partial\n', `stdout of the failure ${JSON.stringify(failed.stdout)}`);
    await sprite.filesystem('/home/sprite').writeFile('work/marker.txt', 'm');
    const ls = await sprite.execFile('ls', [], { cwd: '/home/sprite/work' });
    assert(ls.stdout === 'marker.txt\n', `ls in cwd ${JSON.stringify(ls.stdout)}`);
  });

  await step('exec: stdin and stdin EOF (spawn)', async () => {
    const cat = sprite.spawn('sh', ['-c', 'tr a-z A-Z; echo done'], {});
    await waitForEvent(cat, 'spawn');
    const out = waitFor(cat.stdout, (t) => t.includes('done\n'), 'the upper-cased input');
    cat.stdin.write('piped input\n');
    cat.stdin.end();
    const [text, code] = await Promise.all([out, cat.wait()]);
    assert(text === 'PIPED INPUT\ndone\n', `stdout ${JSON.stringify(text)}`);
    assert(code === 0, `exit ${code}`);
  });

  await step('exec over HTTP', async () => {
    const r = await sprite.execFileHTTP('sh', ['-c', 'cat; echo e >&2'], { input: 'from-body\n' });
    assert(r.stdout === 'from-body\n' && r.stderr === 'e\n' && r.exitCode === 0, `http ${JSON.stringify(r)}`);
    await rejects(sprite.execFileHTTP('sh', ['-c', 'exit 4']), (e) => (e.exitCode === 4 ? '' : `exit ${e.exitCode}`),
      'http exit 4');
  });

  let sessionId;
  let terminal;
  await step('TTY session: echo, resize, a port opened, status running, detach', async () => {
    terminal = sprite.createSession('bash', ['--norc', '--noprofile'], { cols: 80, rows: 24 });
    const messages = [];
    terminal.on('message', (m) => messages.push(m));
    await waitForEvent(terminal, 'spawn');
    const info = await waitUntil(() => messages.find((m) => m.type === 'session_info'), 'session_info');
    assert(info.tty === true && info.session_id, `session_info ${JSON.stringify(info)}`);
    sessionId = info.session_id;
    let screen = waitFor(terminal.stdout, (t) => t.includes('typed-42'), 'the echo');
    terminal.stdin.write('echo typed-$((6*7))\r');
    await screen;
    terminal.resize(101, 31);
    screen = waitFor(terminal.stdout, (t) => t.includes('31 101'), 'the new size');
    terminal.stdin.write('stty size\r');
    await screen;
    assert((await client.getSprite(name)).status === 'running', 'not running while a session runs');
    terminal.stdin.write('busybox httpd -f -p 127.0.0.1:8765 &\r');
    const opened = await waitUntil(() => messages.find((m) => m.type === 'port_opened'), 'port_opened');
    assert(opened.port === 8765 && opened.address, `port_opened ${JSON.stringify(opened)}`);
    terminal.wsCmd.close(); // detach: the session runs on
    await terminal.wait();
    return `session ${sessionId}`;
  });

  await step('list sessions shows the detached one', async () => {
    const sessions = await sprite.listSessions();
    const s = sessions.find((x) => String(x.id) === String(sessionId));
    assert(s && s.tty === true && s.command.startsWith('bash') && s.created instanceof Date,
      `sessions ${JSON.stringify(sessions)}`);
    assert(!s.isActive, 'active without a client');
  });

  let first;
  let second;
  await step('reattach twice: the screen replays, both see new output', async () => {
    first = sprite.attachSession(String(sessionId));
    const replay = waitFor(first.stdout, (t) => t.includes('typed-42'), 'the replayed screen');
    await waitForEvent(first, 'spawn');
    await replay;
    second = sprite.attachSession(String(sessionId));
    await waitForEvent(second, 'spawn');
    const a = waitFor(first.stdout, (t) => t.includes('again-7'), 'output on the first client');
    const b = waitFor(second.stdout, (t) => t.includes('again-7'), 'output on the second client');
    second.stdin.write('echo again-$((3+4))\r');
    await Promise.all([a, b]);
  });

  await step('kill the session (TERM; KILL after a timeout)', async () => {
    const exits = Promise.all([first.wait(), second.wait()]);
    const events = await collect(await sprite.killSession(String(sessionId), 'SIGTERM', '1s'));
    const types = events.map((e) => e.type);
    assert(types[0] === 'signal' && events[0].signal === 'SIGTERM' && events[0].pid > 0, `events ${JSON.stringify(events)}`);
    // TERM ends it (143), or, where the shell ignores TERM, KILL after the timeout does (137).
    const ended = types.includes('exited') ? 143 : types.includes('timeout') && types.includes('killed') ? 137 : -1;
    assert(types.at(-1) === 'complete' && events.at(-1).exitCode === ended, `complete ${JSON.stringify(events)}`);
    const codes = await exits;
    assert(codes.every((c) => c === 1), `attached clients' exit codes ${codes}`);
    const sessions = await sprite.listSessions();
    assert(!sessions.some((x) => String(x.id) === String(sessionId)), `still listed ${JSON.stringify(sessions)}`);
    await waitUntil(async () => (await client.getSprite(name)).status === 'warm', 'warm after the last session');
    // The port went with the session's processes (the server polls them every 500 ms).
    await waitUntil(async () => (await admin('GET', 'state')).sprites.find((s) => s.name === name)?.ports.length === 0,
      'the port closed with the session');
  });

  if (coldMs < 5000) {
    await step('warm turns cold when idle', async () => {
      await waitUntil(async () => (await client.getSprite(name)).status === 'cold', 'cold', coldMs + 3000);
    });
  }

  await step('files: write, read, list, stat, rename, copy, chmod, delete', async () => {
    const fs = sprite.filesystem('/home/sprite');
    await fs.writeFile('dir/a/b.txt', 'content-1');
    assert((await fs.readFile('dir/a/b.txt', 'utf8')) === 'content-1', 'read back');
    assert((await fs.readFile('/home/sprite/dir/a/b.txt')).toString() === 'content-1', 'read by absolute path');
    const names = await fs.readdir('dir/a');
    assert(names.join() === 'b.txt', `readdir ${names}`);
    const entries = await fs.readdir('dir', { withFileTypes: true });
    assert(entries.length === 1 && entries[0].isDirectory() && entries[0].name === 'a', 'readdir with types');
    const stat = await fs.stat('dir/a/b.txt');
    assert(stat.isFile() && stat.size === 9 && stat.mtime instanceof Date, `stat ${JSON.stringify(stat)}`);
    await fs.rename('dir/a/b.txt', 'dir/a/c.txt');
    assert(!(await fs.exists('dir/a/b.txt')) && (await fs.exists('dir/a/c.txt')), 'rename');
    await fs.copyFile('dir/a/c.txt', 'dir/copy.txt');
    assert((await fs.readFile('dir/copy.txt', 'utf8')) === 'content-1', 'copy');
    await fs.chmod('dir/a/c.txt', 0o755);
    assert(((await fs.stat('dir/a/c.txt')).mode & 0o777) === 0o755, 'chmod');
    const r = await sprite.execFile('sh', ['-c', 'test -x dir/a/c.txt && cat dir/a/c.txt'], { cwd: '/home/sprite' });
    assert(r.stdout === 'content-1', `the command sees the file: ${JSON.stringify(r.stdout)}`);
    await fs.mkdir('dir/empty/deeper', { recursive: true });
    assert((await fs.stat('dir/empty')).isDirectory(), 'mkdir');
    await fs.rm('dir/a/c.txt');
    await rejects(fs.readFile('dir/a/c.txt'), (e) => (e instanceof FilesystemError && e.code === 'ENOENT' ? '' : e.code),
      'read of a deleted file');
    await rejects(fs.rm('dir'), (e) => (e.code === 'ENOTEMPTY' ? '' : e.code), 'rm of a full folder');
    await fs.rm('dir', { recursive: true });
    await rejects(fs.readFile('../../etc/passwd'), (e) => (e.code === 'EACCES' ? '' : e.code), 'an escape');
  });

  await step('checkpoint, change, restore', async () => {
    const fs = sprite.filesystem('/home/sprite');
    await fs.writeFile('state.txt', 'before');
    const created = await collect(await sprite.createCheckpoint('before the change'));
    assert(created.some((m) => m.type === 'info') && created.at(-1).type === 'complete', `create ${JSON.stringify(created)}`);
    const list = await sprite.listCheckpoints();
    assert(list.length === 1 && list[0].comment === 'before the change' && list[0].createTime instanceof Date,
      `list ${JSON.stringify(list)}`);
    const id = list[0].id;
    assert((await sprite.getCheckpoint(id)).id === id, 'get checkpoint');
    await fs.writeFile('state.txt', 'after');
    await fs.writeFile('extra.txt', 'new');
    const restored = await collect(await sprite.restoreCheckpoint(id));
    assert(restored.at(-1).type === 'complete', `restore ${JSON.stringify(restored)}`);
    assert((await fs.readFile('state.txt', 'utf8')) === 'before', 'state.txt not restored');
    assert(!(await fs.exists('extra.txt')), 'extra.txt survived the restore');
    await rejects(sprite.getCheckpoint('v99'), () => '', 'a missing checkpoint');
    return id;
  });

  await step('faults: 500, 429, a truncated stream, a refused and a cut WebSocket reach the caller, no retries', async () => {
    await admin('DELETE', 'faults');
    await admin('POST', 'faults', { rules: [{ method: 'GET', path: `/v1/sprites/${name}`, fault: '500', times: 1 }] });
    await rejects(client.getSprite(name), (e) => (e instanceof APIError && e.statusCode === 500 ? '' : `${e.statusCode}`),
      'injected 500');
    await admin('POST', 'faults', { rules: [{ method: 'GET', path: '/v1/sprites', fault: '429', times: 1 }] });
    await rejects(client.listSprites({ prefix }), (e) =>
      (e.isRateLimitError?.() && e.getRetryAfterSeconds() === 1 ? '' : `${e.statusCode} ${e.retryAfterHeader}`), 'injected 429');
    await admin('POST', 'faults',
      { rules: [{ method: 'POST', path: `/v1/sprites/${name}/checkpoint`, fault: 'truncate', times: 1 }] });
    const cut = await collect(await sprite.createCheckpoint('cut'));
    assert(!cut.some((m) => m.type === 'complete'), `a truncated stream completed: ${JSON.stringify(cut)}`);
    await admin('POST', 'faults', { rules: [{ method: 'GET', path: `/v1/sprites/${name}/exec`, fault: '401', times: 1 }] });
    await rejects(sprite.execFile('true'), () => '', 'an exec upgrade refused with 401');
    await admin('POST', 'faults',
      { rules: [{ method: 'GET', path: `/v1/sprites/${name}/exec`, fault: 'ws-close:200', times: 1 }] });
    const cut2 = sprite.spawn('sleep', ['3'], { tty: true, maxRunAfterDisconnect: '0s' });
    cut2.on('error', () => undefined);
    assert((await cut2.wait()) === 1, 'a TTY socket closed with 1011 is exit code 1 to the SDK');
    const rules = (await admin('GET', 'faults')).rules;
    assert(rules.every((r) => r.hits === 1), `each fault hit once (no retries): ${JSON.stringify(rules)}`);
    await admin('DELETE', 'faults');
    assert((await client.getSprite(name)).name === name, 'get after the faults');
  });

  await step('delete; get answers 404', async () => {
    await sprite.delete();
    await rejects(client.getSprite(name), (e) => (e.statusCode === 404 ? '' : `${e.statusCode}`), 'deleted sprite');
    await rejects(sprite.execFile('true'), () => '', 'exec on a deleted sprite');
  });
} catch {
  // The failing step has already printed its line.
} finally {
  for (const cleanup of cleanups) await cleanup();
}

console.log(`${failures ? 'FAIL' : 'PASS'} sprites flow in ${Date.now() - started} ms`);
// Exit once stdout has drained (a pipe loses what process.exit() cuts off).
const code = failures ? 1 : 0;
process.stdout.write('', () => process.exit(code));
