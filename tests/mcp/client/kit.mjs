// What the MCP flows share: one line per step, and checks that fail the step with a message.

export async function step(name, fn) {
  const t = Date.now()
  try {
    await fn()
    console.log(`ok   ${name} (${Date.now() - t} ms)`)
  } catch (err) {
    console.log(`FAIL ${name}: ${err?.stack ?? err}`)
    throw err
  }
}

export function check(condition, message) {
  if (!condition) throw new Error(message)
}
