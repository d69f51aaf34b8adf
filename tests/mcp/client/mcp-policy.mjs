// The agent policy (agent-policy.json in the config folder), driven through the official MCP SDK
// against `sandbarctl mcp` with no window running: every limit is a clear tool error and creates
// nothing; a call that needs approval is denied because nobody can approve it; a client that
// disconnects leaves no session behind when the policy asks; every call is in the audit log with
// the client's name and redacted arguments. run-client.sh sets the same variables as for
// mcp-flow.mjs.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { check, step } from './kit.mjs'

const sandbarctl = process.env.SANDBARCTL
const configDir = process.env.SANDBAR_MCP_CONFIG
const account = process.env.SANDBAR_MCP_ACCOUNT
const image = process.env.SANDBAR_MCP_IMAGE || ''
const policyFile = join(configDir, 'agent-policy.json')
// Not the suite's secret marker: the session itself must get the value (Local keeps it in the
// sandbox's own config), only the audit log must not.
const secret = `mcp-env-value-${randomBytes(6).toString('hex')}`
const clientName = 'sandbar-mcp-policy-test'


function setPolicy(fields) {
  writeFileSync(policyFile, JSON.stringify({ version: 1, ...fields }))
}

function connect() {
  const client = new Client({ name: clientName, version: '2.5.0' })
  const transport = new StdioClientTransport({
    command: sandbarctl, args: ['--config-dir', configDir, 'mcp'], env: process.env, stderr: 'inherit',
  })
  return client.connect(transport).then(() => client)
}

let client = await connect()

async function tool(name, args = {}) {
  const r = await client.callTool({ name, arguments: args })
  check(!r.isError, `${name} failed: ${r.content?.[0]?.text}`)
  return r.structuredContent
}

async function refused(name, args, expected) {
  const r = await client.callTool({ name, arguments: args })
  check(r.isError === true, `${name} should be refused: ${JSON.stringify(r)}`)
  const text = r.content[0].text
  check(text.includes(expected), `${name}: expected "${expected}" in: ${text}`)
  return text
}

const sessionCount = async () => (await tool('list_sessions')).sessions.length
const base = image ? { account, image } : { account }
const hostDir = mkdtempSync(join(tmpdir(), 'sandbar-mcp-host-'))
writeFileSync(join(hostDir, 'data.txt'), 'from the host\n')

let ref
try {
  const before = await sessionCount()

  await step('an account the policy does not list: refused, hidden, nothing created', async () => {
    setPolicy({ accounts: ['some-other-account'] })
    await refused('create_session', base, `Account '${account}' is not allowed by the agent policy`)
    const { accounts } = await tool('list_accounts')
    check(accounts.length === 0, `list_accounts shows ${JSON.stringify(accounts)}`)
    await refused('list_sessions', { account }, 'not allowed by the agent policy')
    setPolicy({})
    check((await sessionCount()) === before, 'a session was created')
  })

  await step('a ttl over the maximum, and no ttl under a maximum: refused', async () => {
    setPolicy({ max_ttl_seconds: 3600, default_ttl_seconds: 600 })
    await refused('create_session', { ...base, ttl: 7200 }, "over the agent policy's maximum of 1 hour")
    await refused('create_session', { ...base, ttl: 0 }, '0 (no limit)')
    check((await sessionCount()) === before, 'a session was created')
  })

  await step('network when the policy forbids it: refused', async () => {
    setPolicy({ allow_network: false })
    await refused('create_session', { ...base, network: true }, 'Network access is not allowed')
  })

  await step('host folders when the policy forbids them: refused (create and upload)', async () => {
    setPolicy({ allow_host_paths: false })
    await refused('create_session', { ...base, mounts: [`${hostDir}:/mnt/host`] }, 'Host folders are not allowed')
    check((await sessionCount()) === before, 'a session was created')
  })

  await step('more sessions than the policy allows: refused', async () => {
    setPolicy({ max_sessions: 0 })
    await refused('create_session', base, "the agent policy's maximum")
  })

  await step('a call that needs approval, with no window running: denied and says why', async () => {
    setPolicy({})
    const text = await refused('create_session', { ...base, network: true }, 'the window is not running')
    check(text.includes('approval'), text)
    check((await sessionCount()) === before, 'a session was created')
  })

  await step('a disabled tool is neither listed nor callable', async () => {
    setPolicy({ disabled_tools: ['exec', 'upload'] })
    const { tools } = await client.listTools()
    check(!tools.some((t) => t.name === 'exec'), 'exec still listed')
    check(tools.some((t) => t.name === 'list_files'), 'list_files missing')
    await refused('exec', { session: `${account}/x`, argv: ['true'] }, "The tool 'exec' is disabled")
  })

  await step('a broken policy file: every call refused with the file named', async () => {
    writeFileSync(policyFile, '{"accounts": [')
    await refused('list_accounts', {}, 'agent-policy.json')
    setPolicy({ accounts: 'all' })
    await refused('list_accounts', {}, '"accounts" must be a list')
  })

  await step('allowed by the policy: created with the agent label and the policy ttl', async () => {
    setPolicy({ default_ttl_seconds: 900, allow_host_paths: true, approve_host_paths: false })
    const { session } = await tool('create_session', { ...base, env: [`API_TOKEN=${secret}`] })
    ref = session.ref
    check(session.ttl_seconds === 900, `ttl not 900: ${JSON.stringify(session)}`)
    const listed = JSON.parse(execFileSync(sandbarctl, ['--config-dir', configDir, '--json', 'sessions', 'info', ref]))
    const labels = listed.labels ?? {}
    check(labels['dev.sandbar.agent'] === `${clientName} 2.5.0`, `labels ${JSON.stringify(labels)}`)
  })

  await step('upload from the host where the policy allows it without approval', async () => {
    const r = await tool('upload', { session: ref, host_path: join(hostDir, 'data.txt'), path: '/tmp/' })
    check(r.bytes > 0, JSON.stringify(r))
    const out = await tool('exec', { session: ref, argv: ['cat', '/tmp/data.txt'] })
    check(out.stdout === 'from the host\n', JSON.stringify(out))
    setPolicy({ allow_host_paths: false })
    await refused('upload', { session: ref, host_path: join(hostDir, 'data.txt'), path: '/tmp/' },
      'Host paths are not allowed')
    setPolicy({ allow_host_paths: true })
    await refused('upload', { session: ref, host_path: join(hostDir, 'data.txt'), path: '/tmp/' },
      'the window is not running')
  })

  await step('remove_on_disconnect: the session goes with the client', async () => {
    setPolicy({ remove_on_disconnect: true })
    await client.close()
    const deadline = Date.now() + 60000
    for (;;) {
      const list = JSON.parse(execFileSync(sandbarctl, ['--config-dir', configDir, '--json', 'sessions', 'list']))
      const sessions = Array.isArray(list) ? list : list.sessions ?? []
      if (!sessions.some((s) => s.ref === ref || `${s.account}/${s.id}` === ref)) break
      check(Date.now() < deadline, `${ref} still listed 60 s after the client left`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    ref = undefined
  })

  await step('the audit log has each call with the client, redacted', async () => {
    const rows = JSON.parse(execFileSync(sandbarctl,
      ['--config-dir', configDir, '--json', 'audit', '--action', 'agent.call']))
    const entries = Array.isArray(rows) ? rows : rows.entries ?? []
    check(entries.length >= 10, `only ${entries.length} agent.call rows`)
    const ours = entries.filter((e) => e.detail?.client === clientName)
    const create = ours.find((e) => e.detail?.tool === 'create_session' && e.outcome === 'ok')
    check(create, 'no successful create_session row')
    check(create.detail.client === clientName && create.detail.client_version === '2.5.0',
      JSON.stringify(create.detail))
    check(typeof create.detail.duration_ms === 'number', 'no duration')
    const denied = ours.find((e) => e.detail?.tool === 'create_session' && e.outcome === 'error')
    check(denied && denied.error_message?.length > 0, 'no refused create_session row with its reason')
    const all = JSON.stringify(rows)
    check(!all.includes(secret), 'the env value reached the audit log')
  })
} finally {
  rmSync(hostDir, { recursive: true, force: true })
  if (ref) {
    try { execFileSync(sandbarctl, ['--config-dir', configDir, 'sessions', 'rm', ref]) } catch {}
  }
  try { writeFileSync(policyFile, '{}') } catch {}
  try { await client.close() } catch {}
}
