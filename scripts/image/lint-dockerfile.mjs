// Offline Dockerfile lint (hadolint is not installable here): dockerfile-utils'
// validator for syntax and instruction errors, then the image rules this
// project depends on. usage: node scripts/image/lint-dockerfile.mjs [Dockerfile]
import { readFileSync } from "node:fs";
import path from "node:path";
import { validate } from "dockerfile-utils";
import { serverArgs } from "../server-command.mjs";

const file = process.argv[2] ?? "Dockerfile";
const text = readFileSync(file, "utf8");
const problems = validate(text).map((d) => `line ${d.range.start.line + 1}: ${d.message}`);
const problem = (message) => problems.push(message);

// Instructions with continuations joined, comments dropped: [{ line, op, args }].
const instructions = [];
let pending = null;
text.split("\n").forEach((raw, i) => {
  const line = raw.trim();
  if (!pending && (line === "" || line.startsWith("#"))) return;
  if (pending && line.startsWith("#")) return;
  const body = line.endsWith("\\") ? line.slice(0, -1) : line;
  if (pending) pending.text += ` ${body}`;
  else pending = { line: i + 1, text: body };
  if (!line.endsWith("\\")) {
    const [, op, args] = pending.text.match(/^(\S+)\s*(.*)$/);
    instructions.push({ line: pending.line, op: op.toUpperCase(), args });
    pending = null;
  }
});

const stages = [];
for (const ins of instructions) {
  if (ins.op === "FROM") {
    const [image, as, name] = ins.args.replace(/--platform=\S+\s+/, "").split(/\s+/);
    stages.push({ image, name: as?.toUpperCase() === "AS" ? name : undefined, line: ins.line, ins: [] });
  } else stages.at(-1)?.ins.push(ins);
}
const names = new Set(stages.map((s) => s.name).filter(Boolean));
for (const s of stages) {
  if (names.has(s.image)) continue;
  if (!/^(docker\.io\/library\/)?node:24\.\d+\.\d+-bookworm-slim(@sha256:[0-9a-f]{64})?$/.test(s.image)) {
    problem(`line ${s.line}: base ${s.image} is not an exactly pinned node:24.x.y-bookworm-slim`);
  }
}

const final = stages.at(-1) ?? { ins: [] };
const last = (op) => final.ins.filter((i) => i.op === op).at(-1);
const execForm = (ins) => {
  try {
    const v = JSON.parse(ins.args);
    return Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
};

const user = last("USER");
if (!user || /^(0|root)(:|$)/.test(user.args)) problem("final stage: no USER, or USER is root");
else if (!/^\d+(:\d+)?$/.test(user.args)) problem(`line ${user.line}: USER should be numeric so runAsNonRoot can verify it`);

const cmd = last("CMD");
const cmdArgs = cmd ? execForm(cmd) : null;
if (cmdArgs?.[0] !== "node") problem("final stage: CMD must be exec form starting with node (npm swallows signals)");
else if (JSON.stringify(cmdArgs.slice(1)) !== JSON.stringify(serverArgs())) {
  problem(`line ${cmd.line}: CMD should run node ${serverArgs().join(" ")}, as scripts/server-command.mjs says`);
}
const entry = last("ENTRYPOINT");
if (entry && !/tini/.test(entry.args)) problem(`line ${entry.line}: ENTRYPOINT is not tini`);
if (!entry) problem("final stage: no tini ENTRYPOINT (or document --init and drop this rule)");

const health = last("HEALTHCHECK");
if (!health) problem("final stage: no HEALTHCHECK");
else if (!/\bCMD\s+\[\s*"node"/.test(health.args) || !/\/healthz/.test(health.args)) {
  problem(`line ${health.line}: HEALTHCHECK should be exec-form node fetching /healthz (slim images have no curl)`);
}

if (!final.ins.some((i) => i.op === "ENV" && /\bNODE_ENV=production\b/.test(i.args))) problem("final stage: NODE_ENV=production is not set");
const exposed = final.ins.filter((i) => i.op === "EXPOSE").flatMap((i) => i.args.split(/\s+/));
for (const port of ["3000", "9464"]) if (!exposed.includes(port)) problem(`final stage: EXPOSE ${port} missing`);

for (const ins of instructions) {
  if ((ins.op === "ARG" || ins.op === "ENV") && /SENTRY_AUTH_TOKEN/.test(ins.args)) {
    problem(`line ${ins.line}: SENTRY_AUTH_TOKEN in ${ins.op} lands in the image history; use a secret mount`);
  }
  if (ins.op === "RUN" && /SENTRY_AUTH_TOKEN/.test(ins.args) && !/--mount=type=secret/.test(ins.args)) {
    problem(`line ${ins.line}: SENTRY_AUTH_TOKEN used without --mount=type=secret`);
  }
  if (ins.op === "RUN" && /apt-get install/.test(ins.args)) {
    if (!/--no-install-recommends/.test(ins.args)) problem(`line ${ins.line}: apt-get install without --no-install-recommends`);
    if (!/rm -rf \/var\/lib\/apt\/lists/.test(ins.args)) problem(`line ${ins.line}: apt lists not removed in the same layer`);
  }
  if (ins.op === "ADD" && !/^--/.test(ins.args)) problem(`line ${ins.line}: use COPY, not ADD`);
}

let ignore = "";
try {
  ignore = readFileSync(path.join(path.dirname(file), ".dockerignore"), "utf8");
} catch {}
const ignored = new Set(ignore.split("\n").map((l) => l.trim().replace(/^\/|\/$/g, "")));
for (const p of ["node_modules", ".env", "dist", "test", ".git"]) {
  if (!ignored.has(p)) problem(`.dockerignore does not exclude ${p}`);
}

if (problems.length) {
  console.error(`lint-dockerfile: ${problems.length} problem(s) in ${file}\n- ${problems.join("\n- ")}`);
  process.exit(1);
}
console.log(`lint-dockerfile: ${file} ok (${stages.length} stages)`);
