// The official MCP TypeScript SDK's Streamable HTTP client against McpHttpServer (served by
// tests/mcp/mcp_http_host with `echo`, `slow` and `stats` tools). Run by run-http-client.sh, which
// sets SANDBAR_MCP_HTTP_PORT and SANDBAR_MCP_HTTP_TOKEN. Exits non-zero on the first failure.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const port = process.env.SANDBAR_MCP_HTTP_PORT;
const token = process.env.SANDBAR_MCP_HTTP_TOKEN;
if (!port || !token) {
  console.error('FAIL: SANDBAR_MCP_HTTP_PORT and SANDBAR_MCP_HTTP_TOKEN must be set');
  process.exit(1);
}
const url = new URL(`http://127.0.0.1:${port}/mcp`);
const auth = { Authorization: `Bearer ${token}` };

function check(condition, what) {
  if (!condition) throw new Error(`FAIL: ${what}`);
  console.error(`ok: ${what}`);
}

async function refused(headers, expected, what) {
  const client = new Client({ name: 'sandbar-http-refused', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  let error;
  try {
    await client.connect(transport);
  } catch (e) {
    error = e;
  }
  await client.close().catch(() => {});
  check(error !== undefined && (error.code === expected || String(error).includes(String(expected))),
    `${what} (${error ? String(error.message ?? error).slice(0, 120) : 'connected'})`);
}

// Polls `condition` (async) until it holds or ten seconds pass.
async function waitFor(condition) {
  const deadline = Date.now() + 10000;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise(resolve => setTimeout(resolve, 50));
  }
  return false;
}

const initialize = JSON.stringify({
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'page', version: '1' } },
});

async function main() {
  await refused({}, 401, 'a client without the token is refused with 401');
  await refused({ Authorization: 'Bearer not-the-token' }, 401, 'a client with a wrong token is refused with 401');

  // What a page in a browser would send: the right token (say it leaked) from a foreign Origin.
  const page = await fetch(url, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
      Origin: 'https://evil.example' },
    body: initialize,
  });
  check(page.status === 403, `a request from a foreign Origin is refused with 403 (got ${page.status})`);
  await page.body?.cancel();

  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: auth } });
  const client = new Client({ name: 'sandbar-http-flow', version: '1.0.0' });
  await client.connect(transport);
  const session = transport.sessionId;
  check(typeof session === 'string' && session.length >= 32, 'initialize gave a session id');
  check(client.getServerVersion()?.name === 'sandbar-http-host', 'the server names itself');
  check(client.getServerCapabilities()?.tools !== undefined, 'the server offers tools');

  const { tools } = await client.listTools();
  const names = tools.map(t => t.name).sort();
  check(JSON.stringify(names) === '["echo","slow","stats"]', `tools/list: ${names.join(', ')}`);

  const text = 'héllo wörld ✓ 🌍';
  const echo = await client.callTool({ name: 'echo', arguments: { text } });
  check(!echo.isError && echo.structuredContent?.text === text, 'echo returns its non-ASCII text');

  const progress = [];
  const slow = await client.callTool({ name: 'slow', arguments: { steps: 4 } }, undefined,
    { onprogress: p => progress.push(`${p.progress}/${p.total}`) });
  check(!slow.isError && slow.structuredContent?.steps === 4, 'slow answers after its steps');
  check(progress.join(',') === '1/4,2/4,3/4,4/4', `progress arrived on the call's stream: ${progress.join(',')}`);

  const bad = await client.callTool({ name: 'echo', arguments: { nope: 1 } });
  check(bad.isError === true, 'arguments off the schema are a tool error');

  // Calls side by side on one session, each on its own stream.
  const texts = ['a', 'b', 'c', 'd', 'e'];
  const results = await Promise.all(texts.map(t => client.callTool({ name: 'echo', arguments: { text: t } })));
  check(results.every((r, i) => r.structuredContent?.text === texts[i]), 'five calls at once come back to their callers');

  await client.ping();
  check(true, 'ping');

  // Cancelled by the client: its notifications/cancelled stops the call in the server.
  const cancelled = async () => (await client.callTool({ name: 'stats', arguments: {} })).structuredContent.cancelled;
  const controller = new AbortController();
  let progressed;
  const firstProgress = new Promise(resolve => { progressed = resolve; });
  const doomed = client.callTool({ name: 'slow', arguments: { steps: 1000 } }, undefined,
    { signal: controller.signal, onprogress: () => progressed() });
  await firstProgress;
  controller.abort('changed my mind');
  check(await doomed.then(() => false, () => true), 'an aborted call rejects on the client');
  check(await waitFor(async () => (await cancelled()) >= 1), 'the aborted call was cancelled in the server');

  // A client that goes away in the middle of a call: the call is cancelled too.
  const leaving = new Client({ name: 'sandbar-http-leaving', version: '1.0.0' });
  const leavingTransport = new StreamableHTTPClientTransport(url, { requestInit: { headers: auth } });
  await leaving.connect(leavingTransport);
  let running;
  const started = new Promise(resolve => { running = resolve; });
  const orphan = leaving.callTool({ name: 'slow', arguments: { steps: 1000 } }, undefined, { onprogress: () => running() })
    .catch(() => 'closed');
  await started;
  await leaving.close();
  await orphan;
  check(await waitFor(async () => (await cancelled()) >= 2), 'a client closing mid-call cancels that call');

  await transport.terminateSession();
  check(transport.sessionId === undefined, 'DELETE ended the session');
  const after = await fetch(url, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
      'Mcp-Session-Id': session },
    body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} }),
  });
  check(after.status === 404, `the ended session is gone (404, got ${after.status})`);
  await after.body?.cancel();
  await client.close();
}

try {
  await main();
  console.error('mcp http flow: all checks passed');
} catch (e) {
  console.error(e?.stack ?? String(e));
  process.exit(1);
}
