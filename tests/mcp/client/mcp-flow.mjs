// The official MCP TypeScript SDK driving `sandbarctl mcp` over stdio, as an agent would.
// run-client.sh sets SANDBARCTL, SANDBAR_MCP_CONFIG (a private config folder holding the
// account SANDBAR_MCP_ACCOUNT) and, for engines with images, SANDBAR_MCP_IMAGE.
// One line per step; exits non-zero on the first failure.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import Ajv from 'ajv'
import Ajv2020 from 'ajv/dist/2020.js'
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createInterface } from 'node:readline'
import { check, step } from './kit.mjs'

const sandbarctl = process.env.SANDBARCTL
const configDir = process.env.SANDBAR_MCP_CONFIG
const account = process.env.SANDBAR_MCP_ACCOUNT
const image = process.env.SANDBAR_MCP_IMAGE || ''
// Local kills a cancelled command through its agent; Docker's and Podman's engines have no call
// that kills an exec (issue 14 asks for a second exec that does), so there only the answer is
// checked.
const killsOnCancel = process.env.SANDBAR_MCP_ENGINE === 'local'
const run = randomBytes(4).toString('hex')
const args = ['--config-dir', configDir, 'mcp']

const expectedTools = ['command_output', 'compare_providers', 'create_session', 'create_snapshot', 'exec',
  'fork_session', 'list_accounts', 'list_commands', 'list_files', 'list_sessions', 'list_snapshots', 'read_file',
  'remove_session', 'restore_snapshot', 'session_stats', 'signal_command', 'start_command', 'stop_session', 'upload',
  'write_file']

let ref
let removed = false
const started = Date.now()


async function waitFor(predicate, ms, what) {
  const deadline = Date.now() + ms
  for (;;) {
    if (await predicate()) return
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

const client = new Client({ name: 'sandbar-mcp-test', version: '1.0.0' })
const transport = new StdioClientTransport({ command: sandbarctl, args, env: process.env, stderr: 'inherit' })

// A tool's structured answer; a tool error fails the step with its message.
async function tool(name, toolArgs = {}, options = {}) {
  const r = await client.callTool({ name, arguments: toolArgs }, undefined, options)
  check(!r.isError, `${name} failed: ${r.content?.[0]?.text}`)
  check(r.content?.[0]?.type === 'text', `${name}: no text content`)
  check(r.structuredContent && typeof r.structuredContent === 'object', `${name}: no structuredContent`)
  return r.structuredContent
}

async function toolError(name, toolArgs) {
  const r = await client.callTool({ name, arguments: toolArgs })
  check(r.isError === true, `${name} should fail: ${JSON.stringify(r)}`)
  check(!r.structuredContent, `${name}: a failure carries no structuredContent`)
  return r.content[0].text
}

const exec = (toolArgs, options) => tool('exec', { session: ref, ...toolArgs }, options)

// A raw child: lines in, lines out, for what the SDK never sends (broken JSON, batches).
async function rawSession(lines) {
  const child = spawn(sandbarctl, args, { stdio: ['pipe', 'pipe', 'inherit'] })
  const answers = []
  const rl = createInterface({ input: child.stdout })
  rl.on('line', (l) => answers.push(JSON.parse(l)))
  const drained = new Promise((resolve) => rl.on('close', resolve))
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })))
  for (const l of lines) child.stdin.write(l + '\n')
  child.stdin.end()
  const [result] = await Promise.all([exited, drained])
  return { ...result, answers }
}

try {
  await step('initialize', async () => {
    await client.connect(transport)
    check(client.getServerVersion()?.name === 'sandbar', `server ${JSON.stringify(client.getServerVersion())}`)
    check(client.getServerCapabilities()?.tools, 'no tools capability')
  })

  await step('tools/list: every schema compiles (draft-07 and 2020-12)', async () => {
    const { tools } = await client.listTools()
    const names = tools.map((t) => t.name).sort()
    check(JSON.stringify(names) === JSON.stringify(expectedTools), `tools ${names}`)
    const ajv07 = new Ajv({ strict: true, allowUnionTypes: true })
    const ajv2020 = new Ajv2020({ strict: true, allowUnionTypes: true })
    for (const t of tools) {
      check(t.title && t.description, `${t.name}: no title or description`)
      for (const [kind, schema] of [['inputSchema', t.inputSchema], ['outputSchema', t.outputSchema]]) {
        check(schema?.type === 'object', `${t.name}.${kind} is not an object schema`)
        ajv07.compile(schema)
        ajv2020.compile(schema)
      }
    }
    const create = tools.find((t) => t.name === 'create_session')
    for (const key of ['account', 'ttl', 'network', 'cpus', 'memory', 'env'])
      check(create.inputSchema.properties[key], `create_session lacks ${key}`)
    // Host folders are offered; the agent policy decides whether a call may use them.
    check(create.inputSchema.properties.mounts, 'create_session lacks mounts')
  })

  await step('list_accounts', async () => {
    const { accounts } = await tool('list_accounts')
    check(accounts.some((a) => a.name === account), `no account ${account}: ${JSON.stringify(accounts)}`)
  })

  await step('tool errors are results, protocol errors are errors', async () => {
    const noAccount = await toolError('create_session', { account: 'nosuch' })
    check(noAccount.includes('nosuch'), noAccount)
    const bogus = await toolError('create_session', { account, bogusOption: 1 })
    check(bogus.includes('bogusOption'), bogus)
    const badType = await toolError('exec', { session: 'x', argv: 'echo' })
    check(badType.includes('argv'), badType)
    const noSession = await toolError('exec', { session: `${account}/nosuch${run}`, argv: ['true'] })
    check(noSession.length > 0, 'empty message')
    try {
      await client.callTool({ name: 'no_such_tool', arguments: {} })
      throw new Error('unknown tool accepted')
    } catch (err) {
      check(err instanceof McpError && err.code === -32602, `wrong error ${err}`)
    }
  })

  await step('create_session (default ttl 30 min)', async () => {
    const createArgs = { account, name: `mcp-${run}` }
    if (image) createArgs.image = image
    const { session } = await tool('create_session', createArgs)
    ref = session.ref
    check(ref?.startsWith(`${account}/`), `ref ${ref}`)
    check(session.ttl_seconds === 1800, `ttl ${session.ttl_seconds}`)
  })

  await step('exec echo', async () => {
    const r = await exec({ argv: ['echo', 'hello from mcp'] })
    check(r.exit_code === 0 && r.stdout === 'hello from mcp\n', JSON.stringify(r))
    check(r.stdout_bytes === 15 && !r.truncated, JSON.stringify(r))
  })

  await step('exec: shell command, stderr, exit code, stdin', async () => {
    const r = await exec({ command: 'echo out; echo err >&2; exit 3' })
    check(r.exit_code === 3 && r.stdout === 'out\n' && r.stderr === 'err\n', JSON.stringify(r))
    const cat = await exec({ argv: ['cat'], stdin: 'piped in' })
    check(cat.stdout === 'piped in', JSON.stringify(cat))
  })

  await step('exec: output over 1 MiB is cut with the true count', async () => {
    const r = await exec({ command: 'head -c 1200000 /dev/zero | tr "\\0" a' })
    check(r.stdout.length === 1048576 && r.stdout_bytes === 1200000 && r.truncated, `${r.stdout.length} ${r.stdout_bytes}`)
  })

  await step('exec: a timeout answers with the reason', async () => {
    const text = await toolError('exec', { session: ref, command: 'sleep 30', timeout_seconds: 1 })
    check(text.includes('1 s'), text)
  })

  const content = 'héllo wörld — 漢字 🎉\nzweite Zeile\n'
  const path = '/workspace/mcp-ünïcode.txt'
  await step('write_file and read_file back (non-ASCII)', async () => {
    const w = await tool('write_file', { session: ref, path, content })
    check(w.bytes === Buffer.byteLength(content), JSON.stringify(w))
    const r = await tool('read_file', { session: ref, path })
    check(r.content === content && r.encoding === 'text', JSON.stringify(r))
    const b = await tool('read_file', { session: ref, path, encoding: 'base64' })
    check(Buffer.from(b.content, 'base64').toString('utf8') === content, 'base64 differs')
    const bin = Buffer.from([0, 1, 2, 255, 254, 10])
    await tool('write_file', { session: ref, path: '/workspace/bin.dat', content: bin.toString('base64'), encoding: 'base64' })
    const notText = await toolError('read_file', { session: ref, path: '/workspace/bin.dat' })
    check(notText.includes('base64'), notText)
    const back = await tool('read_file', { session: ref, path: '/workspace/bin.dat', encoding: 'base64' })
    check(Buffer.from(back.content, 'base64').equals(bin), 'binary differs')
    const folder = await toolError('read_file', { session: ref, path: '/workspace' })
    check(folder.includes('folder'), folder)
  })

  await step('a 10 MiB argument is a tool error, nothing written', async () => {
    const big = await toolError('write_file', { session: ref, path: '/workspace/big.txt', content: 'x'.repeat(10 << 20) })
    check(big.includes('limit'), big)
    const r = await exec({ command: 'test -e /workspace/big.txt; echo $?' })
    check(r.stdout === '1\n', `big.txt exists: ${JSON.stringify(r)}`)
  })

  await step('list_files', async () => {
    const { entries } = await tool('list_files', { session: ref, path: '/workspace' })
    const e = entries.find((x) => x.name === 'mcp-ünïcode.txt')
    check(e && e.size === Buffer.byteLength(content) && !e.dir, JSON.stringify(entries))
  })

  await step('snapshots where the provider keeps none: one clear refusal', async () => {
    for (const [name, extra] of [['list_snapshots', {}], ['create_snapshot', {}], ['restore_snapshot', { snapshot: 'x' }]]) {
      const text = await toolError(name, { session: ref, ...extra })
      check(/snapshots/i.test(text), `${name}: ${text}`)
    }
  })

  await step('fork where the provider does not fork: one clear refusal, nothing made', async () => {
    const text = await toolError('fork_session', { session: ref })
    check(/fork/i.test(text), `fork_session: ${text}`)
  })

  await step('session_stats', async () => {
    const { sample } = await tool('session_stats', { session: ref })
    check(typeof sample.memory_used_bytes === 'number' || typeof sample.cpu_percent === 'number',
      JSON.stringify(sample))
  })

  await step(`a long exec does not hold up other calls; cancelling it ${killsOnCancel ? 'kills it' : 'answers nothing'}`, async () => {
    const controller = new AbortController()
    const long = exec({ command: 'sleep 737' }, { signal: controller.signal, timeout: 120_000 })
    const t = Date.now()
    await client.ping()
    const { sessions } = await tool('list_sessions', { account })
    check(sessions.some((s) => s.ref === ref), 'own session not listed')
    check(Date.now() - t < 20_000, 'answers waited for the exec')
    const running = async () => {
      const r = await exec({ command: "cat /proc/[0-9]*/cmdline 2>/dev/null | tr '\\0' ' ' | grep -o 'sleep 7[3]7' | wc -l" })
      return Number(r.stdout.trim())
    }
    await waitFor(async () => (await running()) > 0, 30_000, 'the sleep to start')
    controller.abort('test cancels')
    try {
      await long
      throw new Error('cancelled exec answered')
    } catch (err) {
      check(!String(err).includes('cancelled exec answered'), String(err))
    }
    if (killsOnCancel)
      await waitFor(async () => (await running()) === 0, 30_000, 'the cancelled command to be killed')
    else
      await exec({ command: "pkill -f 'sleep 7[3]7' || kill $(pidof sleep) || true" })
  })

  await step('compare_providers', async () => {
    const { estimates } = await tool('compare_providers', { vcpus: 2, memory_gib: 4, hours: 100 })
    check(estimates.length > 0 && estimates.some((e) => typeof e.total_usd === 'number'), JSON.stringify(estimates))
    const bad = await toolError('compare_providers', { vcpus: 2, memory_gib: 4, hours: 1, cpu_busy: 3 })
    check(bad.length > 0, 'no reason')
  })

  await step('stop_session and remove_session', async () => {
    const s = await tool('stop_session', { session: ref })
    check(s.stopped === true && s.session === ref, JSON.stringify(s))
    const r = await tool('remove_session', { session: ref })
    check(r.removed === true, JSON.stringify(r))
    removed = true
    const { sessions } = await tool('list_sessions', {})
    check(!sessions.some((x) => x.ref === ref), 'removed session still listed')
  })

  await step('close: the server exits', async () => {
    await client.close()
  })

  await step('malformed JSON, unknown method, batch, a 17 MiB line; exit 0 when stdin closes', async () => {
    const init = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize',
      params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } })
    const r = await rawSession([
      init,
      '{"jsonrpc":"2.0","id":1,"method":',
      'not json at all',
      '',
      '{"jsonrpc":"2.0","id":2,"method":"frobnicate"}',
      '[{"jsonrpc":"2.0","id":3,"method":"ping"}]',
      '{"id":4,"method":"ping"}',
      '{"jsonrpc":"2.0","id":5,"method":"ping"}',
      `{"jsonrpc":"2.0","id":6,"method":"ping","params":{"pad":"${'y'.repeat(17 << 20)}"}}`,
      // As the SDK writes a request: the id after the params.
      `{"method":"tools/call","params":{"name":"exec","arguments":{"pad":"${'z'.repeat(17 << 20)}"}},"jsonrpc":"2.0","id":"big-8"}`,
      `{"jsonrpc":"2.0","method":"ping","params":{"pad":"${'w'.repeat(17 << 20)}"}}`,
      '{"jsonrpc":"2.0","id":7,"method":"ping"}',
    ])
    check(r.code === 0, `exit ${r.code} ${r.signal}`)
    const codes = r.answers.map((a) => a.error?.code ?? 'ok')
    // Over the 16 MiB limit: answered for its id when the line's first or last bytes show it
    // (ids 6 and big-8), else with a parse error and a null id; the next line is read.
    check(JSON.stringify(codes) === JSON.stringify(['ok', -32700, -32700, -32601, -32600, -32600, 'ok', -32600,
      -32600, -32700, 'ok']), `answers ${JSON.stringify(r.answers)}`)
    check(JSON.stringify(r.answers.slice(7, 10).map((a) => a.id)) === JSON.stringify([6, 'big-8', null]),
      `ids ${JSON.stringify(r.answers.slice(7, 10))}`)
    check(r.answers[0].result.protocolVersion === '2024-11-05', 'version not negotiated')
  })
} catch (err) {
  process.exitCode = 1
} finally {
  if (ref && !removed) {
    // Leave nothing behind: remove through the CLI, whatever state the server is in.
    await new Promise((resolve) => spawn(sandbarctl, ['--config-dir', configDir, 'sessions', 'rm', ref],
      { stdio: 'inherit' }).on('exit', resolve))
  }
  try { await client.close() } catch {}
  console.log(`flow took ${Date.now() - started} ms`)
}
