// The official E2B JS SDK against sandbar-contract-server (e2b). One line per step;
// exits non-zero on the first failure. run-sdk.sh sets E2B_API_URL, E2B_SANDBOX_URL
// (envd requests then carry E2b-Sandbox-Id) and E2B_API_KEY.
import { AuthenticationError, CommandExitError, Sandbox } from 'e2b'
import { randomBytes } from 'node:crypto'

const run = randomBytes(6).toString('hex')
let sandbox
let failed = false

async function step(name, fn) {
  const started = Date.now()
  try {
    await fn()
    console.log(`ok   ${name} (${Date.now() - started} ms)`)
  } catch (err) {
    failed = true
    console.log(`FAIL ${name}: ${err?.stack ?? err}`)
    throw err
  }
}

function check(condition, message) {
  if (!condition) throw new Error(message)
}

function waitFor(predicate, ms, what) {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + ms
    const timer = setInterval(() => {
      if (predicate()) {
        clearInterval(timer)
        resolve()
      } else if (Date.now() > deadline) {
        clearInterval(timer)
        reject(new Error(`timed out waiting for ${what}`))
      }
    }, 20)
  })
}

try {
  await step('create with metadata', async () => {
    sandbox = await Sandbox.create('base', { metadata: { suite: 'contract', run }, timeoutMs: 120_000 })
    check(sandbox.sandboxId, 'no sandbox id')
  })

  await step('list by metadata', async () => {
    const items = await Sandbox.list({ query: { metadata: { run } } }).nextItems()
    check(items.length === 1 && items[0].sandboxId === sandbox.sandboxId, `unexpected list: ${JSON.stringify(items)}`)
    check(items[0].metadata.suite === 'contract', 'metadata lost')
    const none = await Sandbox.list({ query: { metadata: { run: 'nope' } } }).nextItems()
    check(none.length === 0, 'metadata filter ignored')
  })

  await step("commands.run('echo hi')", async () => {
    const result = await sandbox.commands.run('echo hi')
    check(result.exitCode === 0, `exit code ${result.exitCode}`)
    check(result.stdout === 'hi\n', `stdout ${JSON.stringify(result.stdout)}`)
  })

  await step('failing command exit code', async () => {
    try {
      await sandbox.commands.run('echo oops >&2; exit 7')
      throw new Error('no CommandExitError')
    } catch (err) {
      check(err instanceof CommandExitError, `wrong error ${err}`)
      check(err.exitCode === 7, `exit code ${err.exitCode}`)
      check(err.stderr === 'oops\n', `stderr ${JSON.stringify(err.stderr)}`)
    }
  })

  await step('stdin, background list/connect/kill', async () => {
    const cat = await sandbox.commands.run('cat', { background: true, stdin: true })
    await sandbox.commands.sendStdin(cat.pid, 'from stdin')
    await sandbox.commands.closeStdin(cat.pid)
    const echoed = await cat.wait()
    check(echoed.stdout === 'from stdin', `cat gave ${JSON.stringify(echoed.stdout)}`)
    const sleeper = await sandbox.commands.run('sleep 30; echo never', { background: true })
    const listed = await sandbox.commands.list()
    check(listed.some((p) => p.pid === sleeper.pid), `pid ${sleeper.pid} not in ${JSON.stringify(listed)}`)
    const again = await sandbox.commands.connect(sleeper.pid)
    const killed = await sandbox.commands.kill(sleeper.pid)
    const ended = await again.wait().catch((err) => err)
    // A false kill means the sleeper had already ended: say how, so a failure explains itself.
    check(killed === true, `kill returned false; the sleeper ended with ${ended?.exitCode} ` +
      `(${ended?.error ?? ''}) stdout ${JSON.stringify(ended?.stdout)} stderr ${JSON.stringify(ended?.stderr)}`)
    check(ended instanceof CommandExitError && !ended.stdout.includes('never'), `after kill: ${ended}`)
  })

  await step('pty create, input, resize, stty size', async () => {
    let output = ''
    const decoder = new TextDecoder()
    const pty = await sandbox.pty.create({ cols: 80, rows: 24, onData: (d) => { output += decoder.decode(d) } })
    const send = (s) => sandbox.pty.sendInput(pty.pid, new TextEncoder().encode(s))
    await send('stty size\n')
    await waitFor(() => output.includes('24 80'), 10_000, '"24 80" from stty size')
    await sandbox.pty.resize(pty.pid, { cols: 132, rows: 43 })
    await send('stty size\n')
    await waitFor(() => output.includes('43 132'), 10_000, '"43 132" after resize')
    await send('exit 5\n')
    const result = await pty.wait().catch((err) => err)
    check(result.exitCode === 5, `pty exit code ${result.exitCode}`)
  })

  await step('files write/read round trip', async () => {
    const info = await sandbox.files.write('/home/user/hello.txt', 'hello contract')
    check(info.path === '/home/user/hello.txt', `write info ${JSON.stringify(info)}`)
    const text = await sandbox.files.read('/home/user/hello.txt')
    check(text === 'hello contract', `read ${JSON.stringify(text)}`)
    const seen = await sandbox.commands.run('cat /home/user/hello.txt')
    check(seen.stdout === 'hello contract', 'the command does not see the file')
  })

  await step('files 5 MiB round trip (multipart and octet-stream)', async () => {
    const data = randomBytes(5 * 1024 * 1024)
    await sandbox.files.write('/home/user/big.bin', new Blob([data]))
    const back = Buffer.from(await sandbox.files.read('/home/user/big.bin', { format: 'bytes' }))
    check(back.equals(data), `5 MiB differs (${back.length} bytes back)`)
    await sandbox.files.write('/tmp/big2.bin', new Blob([data]), { useOctetStream: true })
    const sum = await sandbox.commands.run('sha256sum /tmp/big2.bin | cut -d" " -f1')
    const { createHash } = await import('node:crypto')
    check(sum.stdout.trim() === createHash('sha256').update(data).digest('hex'), 'octet-stream upload differs')
  })

  await step('files makeDir/list', async () => {
    check((await sandbox.files.makeDir('/home/user/dir')) === true, 'makeDir did not create')
    check((await sandbox.files.makeDir('/home/user/dir')) === false, 'makeDir of an existing dir')
    const names = (await sandbox.files.list('/home/user')).map((e) => `${e.name}:${e.type}`)
    check(names.includes('dir:dir') && names.includes('hello.txt:file'), `list ${names}`)
    check(await sandbox.files.exists('/home/user/hello.txt'), 'exists false')
  })

  await step('setTimeout', async () => {
    await sandbox.setTimeout(60_000)
    const info = await sandbox.getInfo()
    const left = info.endAt.getTime() - Date.now()
    check(left > 50_000 && left <= 61_000, `endAt in ${left} ms`)
  })

  await step('metrics', async () => {
    const metrics = await sandbox.getMetrics()
    check(metrics.length >= 1 && metrics[0].diskUsed >= 5 * 1024 * 1024, `metrics ${JSON.stringify(metrics)}`)
  })

  await step('pause and connect (resume)', async () => {
    check((await sandbox.pause()) === true, 'pause returned false')
    const [paused] = await Sandbox.list({ query: { metadata: { run }, state: ['paused'] } }).nextItems()
    check(paused?.state === 'paused', 'not listed as paused')
    const again = await Sandbox.connect(sandbox.sandboxId)
    const seen = await again.commands.run('cat /home/user/hello.txt')
    check(seen.stdout === 'hello contract', 'files lost over pause')
    check((await Sandbox.getInfo(sandbox.sandboxId)).state === 'running', 'not running after connect')
  })

  await step('kill', async () => {
    await sandbox.kill()
    const items = await Sandbox.list({ query: { metadata: { run } } }).nextItems()
    check(items.length === 0, 'still listed after kill')
    check((await Sandbox.kill(sandbox.sandboxId)) === false, 'second kill found it')
  })

  await step('auth failure with a wrong key', async () => {
    try {
      await Sandbox.list({ apiKey: 'e2b_wrong_key' }).nextItems()
      throw new Error('no AuthenticationError')
    } catch (err) {
      check(err instanceof AuthenticationError, `wrong error ${err}`)
    }
  })
} catch {
  // step() printed the failure
}

if (sandbox && failed) await sandbox.kill().catch(() => {})
process.exit(failed ? 1 : 0)
