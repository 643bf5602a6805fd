// An agent's session against ucs-mcp through the official TypeScript MCP
// SDK (@modelcontextprotocol/sdk), a client nobody on this project wrote.
//
//   node client.mjs UCS_MCP WORKSPACE
//
// It starts the server twice over stdio (StdioClientTransport): once with
// --operator to init the workspace, then as the agent's server for the
// session. The SDK's Client.callTool validates every structuredContent
// against the tool's outputSchema (with ajv, once listTools has cached the
// validators; tool errors' structured content too) and throws on a
// mismatch; this script also fails on a tool error where none is expected,
// on a missing one where one is, on a tool missing from the list, and on a
// text content that is not the structured content's JSON. The environment
// (UCS_NOW among it) is passed on to the server whole. It prints one JSON
// line on success and exits 0; anything else exits 1.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [server, workspace] = process.argv.slice(2);
if (!server || !workspace) {
  console.error("usage: node client.mjs UCS_MCP WORKSPACE");
  process.exit(2);
}

// The tools the session below calls: each must be served to the agent.
const sessionTools = [
  "status", "consult", "report", "reflect", "goal_add", "goal_list", "rate",
  "observations", "show", "view", "log", "export", "coverage_check",
  "session_start", "execute_action",
];

// connect starts a server process (with extra flags) and lists its tools,
// which is what makes the SDK compile and cache their output validators.
async function connect(flags) {
  const client = new Client({ name: "ucs-foreign-ts", version: "1.0.0" });
  const transport = new StdioClientTransport({
    command: server,
    args: ["--workspace", workspace, ...flags],
    env: { ...process.env },
    stderr: "inherit",
  });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  for (const t of tools) {
    assert.equal(t.inputSchema?.type, "object", `${t.name}: inputSchema`);
    assert.equal(t.outputSchema?.type, "object", `${t.name}: outputSchema`);
    // The validation of callTool is only as good as this: a tool without
    // a cached validator would pass unchecked.
    assert.equal(typeof client.getToolOutputValidator(t.name), "function", `${t.name}: no output validator`);
  }
  return { client, names };
}

let calls = 0;

// call calls a tool; wantError says whether a tool error is expected. The
// answer's text must be the JSON of its structured content.
async function call(client, name, args = {}, wantError = false) {
  const res = await client.callTool({ name, arguments: args });
  calls++;
  const text = res.content?.[0]?.type === "text" ? res.content[0].text : undefined;
  const detail = `${name} ${JSON.stringify(args)}: ${text}`;
  assert.equal(Boolean(res.isError), wantError, detail);
  assert.ok(res.structuredContent && typeof res.structuredContent === "object", `${detail}: no structuredContent`);
  assert.deepEqual(JSON.parse(text), res.structuredContent, `${detail}: text and structuredContent differ`);
  return res.structuredContent;
}

async function main() {
  // The operator's server: init is an operator's tool only.
  const op = await connect(["--operator"]);
  assert.ok(op.names.includes("init"), "operator: no init tool");
  await call(op.client, "init", {});
  await op.client.close();

  const { client, names } = await connect([]);
  for (const t of sessionTools) assert.ok(names.includes(t), `agent: tool ${t} missing`);
  assert.ok(!names.includes("init"), "agent: init is the operator's");
  // The validators do reject: an answer of the wrong shape fails.
  assert.equal(client.getToolOutputValidator("status")({ reports_total: "many" }).valid, false,
    "status: the SDK's validator accepts a wrong answer");

  await call(client, "session_start");
  await call(client, "status");
  const cov = await call(client, "coverage_check", { context: "run the test suite and fix failures" });
  const goal = await call(client, "goal_add", { content: "make the tests pass", count: 2 });
  const goalId = goal.goal?.id;
  assert.ok(goalId, `goal_add: no goal id: ${JSON.stringify(goal)}`);
  const listed = await call(client, "goal_list", {});
  assert.ok(JSON.stringify(listed).includes(goalId), "goal_list: the new goal missing");
  const advice = await call(client, "consult", { context: "run the test suite and fix failures" });
  assert.ok(advice.advisory_id, "consult: no advisory_id");
  const ran = await call(client, "execute_action", {
    action: "exec", command: ["true"], goal_id: goalId, context: "run the test suite",
  });
  assert.equal(ran.recorded, true, `execute_action: not recorded: ${JSON.stringify(ran)}`);
  await call(client, "report", {
    action: "edit", success: "success", outcome: "fixed the failing test", context: "fix the failing test",
    advisory_id: advice.advisory_id,
  });
  await call(client, "reflect", {
    type: "post_task", text: "Run the suite before fixing: failures cluster.",
    capabilities: ["exec"], keywords: ["tests"],
  });
  const log = await call(client, "log", { op: "report", limit: 1 });
  const seq = (log.events ?? [])[0]?.seq;
  assert.ok(Number.isInteger(seq), `log: no report event: ${JSON.stringify(log)}`);
  await call(client, "rate", { seq, success: "partial", note: "the fix needed a second pass" });
  await call(client, "observations", {});
  await call(client, "show", { context: "run the test suite" });
  const page = await call(client, "view", { inline: true });
  assert.ok(typeof page.html === "string" && page.html.includes("<html"), "view: no inline page");
  const exported = await call(client, "export");
  assert.ok(exported.format, "export: no format");
  // A tool error: its structured content is the error object, which the
  // SDK validates against the same outputSchema.
  const err = await call(client, "rate", { seq: 1000000, success: "failure" }, true);
  assert.ok(err.error && err.code && err.hint, `rate: not an error object: ${JSON.stringify(err)}`);
  const st = await call(client, "status");
  assert.equal(st.reports_total, 2, `status: ${JSON.stringify(st)}`);
  await client.close();

  const pkg = JSON.parse(readFileSync(new URL("node_modules/@modelcontextprotocol/sdk/package.json", import.meta.url)));
  console.log(JSON.stringify({ sdk: pkg.version, tools: names.length, calls, coverage: Object.keys(cov).length > 0 }));
}

main().catch((e) => {
  console.error(`client.mjs: ${e?.stack ?? e}`);
  process.exit(1);
});
