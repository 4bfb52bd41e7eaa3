/**
 * scripts/system-deps.sh, the step that `pnpm test` and .ci/run take first: it finds or installs the
 * system packages that the tests drive. Driven here with a PATH of fake programs (`id`, `apt-get`,
 * `sudo`, and the tools themselves) that record how they were called; nothing real is installed.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("../../scripts/system-deps.sh", import.meta.url));
/** The command each Debian package brings, as the step looks for it. */
const commandOf: Record<string, string> = { tmux: "tmux", strace: "strace", iproute2: "ip", chromium: "chromium" };
const folders: string[] = [];
afterEach(() => {
	for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

interface Machine {
	/** The user id that the fake `id -u` prints. */
	uid: number;
	/** Commands present on the PATH, from {@link commandOf}'s values. */
	commands: string[];
	/** Whether a fake `sudo` exists, and whether `sudo -n` is allowed. */
	sudo?: "absent" | "allowed" | "refused";
	/** Whether the fake apt-get makes the commands of the packages it installs. */
	installWorks?: boolean;
	env?: Record<string, string>;
}

function executable(path: string, text: string): void {
	writeFileSync(path, `#!/bin/bash\n${text}\n`);
	chmodSync(path, 0o755);
}

/** Runs the step on a fake machine; returns its exit code, its output and every call to apt-get and sudo. */
function runStep(machine: Machine) {
	const root = mkdtempSync(join(tmpdir(), "pi-system-deps-"));
	folders.push(root);
	const bin = join(root, "bin");
	const postgres = join(root, "postgres");
	mkdirSync(bin);
	mkdirSync(postgres);
	executable(join(postgres, "initdb"), "exit 0");
	const log = join(root, "calls.log");
	executable(join(bin, "id"), `echo ${machine.uid}`);
	executable(join(bin, "true"), "exit 0");
	executable(join(bin, "env"), 'while [[ "$1" == *=* ]]; do export "$1"; shift; done; exec "$@"');
	const make = Object.entries(commandOf)
		.map(([pkg, command]) => `[ "$p" = ${pkg} ] && printf '#!/bin/bash\\n' > ${bin}/${command} && chmod +x ${bin}/${command}`)
		.join("\n    ");
	executable(
		join(bin, "apt-get"),
		`echo "apt-get $* DEBIAN_FRONTEND=\${DEBIAN_FRONTEND:-}" >> ${log}
if [ "$1" = install ] && [ "${machine.installWorks !== false}" = true ]; then
  for p in "$@"; do
    ${make}
  done
fi
exit 0`,
	);
	if (machine.sudo && machine.sudo !== "absent") {
		executable(join(bin, "sudo"), `echo "sudo $*" >> ${log}\n[ "${machine.sudo}" = allowed ] || exit 1\n[ "$1" = -n ] && shift\nexec "$@"`);
	}
	for (const command of machine.commands) executable(join(bin, command), "exit 0");
	const result = spawnSync("/bin/bash", [script], { env: { PATH: bin, PI_POSTGRES_BIN: postgres, ...machine.env }, encoding: "utf8" });
	const calls = existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : [];
	return { status: result.status, stdout: result.stdout, stderr: result.stderr, calls, bin };
}

const everything = Object.values(commandOf);

describe("the system-packages step of pnpm test", () => {
	it("prints nothing and calls no apt-get when nothing is missing", () => {
		const run = runStep({ uid: 1000, commands: everything });
		expect(run).toMatchObject({ status: 0, stdout: "", stderr: "", calls: [] });
	});

	it("as root, updates once and installs exactly the missing package, saying what and why", () => {
		const run = runStep({ uid: 0, commands: everything.filter((command) => command !== "tmux") });
		expect(run.status).toBe(0);
		expect(run.calls).toEqual(["apt-get update -qq DEBIAN_FRONTEND=", "apt-get install -y -qq tmux DEBIAN_FRONTEND=noninteractive"]);
		expect(run.stdout).toBe("system-deps: installing tmux (the CLI's terminal tests) with apt-get\n");
		expect(run.stderr).toBe("");
	});

	it("installs several missing packages in one apt-get install", () => {
		const run = runStep({ uid: 0, commands: ["tmux", "ip"] });
		expect(run.status).toBe(0);
		expect(run.calls).toEqual(["apt-get update -qq DEBIAN_FRONTEND=", "apt-get install -y -qq strace chromium DEBIAN_FRONTEND=noninteractive"]);
	});

	it("not root and without sudo, stops before any install and names the command and the variables", () => {
		const run = runStep({ uid: 1000, commands: everything.filter((command) => command !== "chromium"), sudo: "absent" });
		expect(run.status).toBe(1);
		expect(run.calls).toEqual([]);
		expect(run.stdout).toBe("");
		expect(run.stderr).toContain("    sudo apt-get install -y chromium\n");
		expect(run.stderr).toContain("chromium (the browser tests: Chromium, driven by playwright-core)");
		expect(run.stderr).toContain("PI_CHROMIUM=");
		expect(run.stderr).toContain("PI_TEST_POSTGRES_URL=");
	});

	it("not root, installs through sudo -n where that is allowed", () => {
		const run = runStep({ uid: 1000, commands: everything.filter((command) => command !== "strace"), sudo: "allowed" });
		expect(run.status).toBe(0);
		expect(run.calls).toEqual([
			"sudo -n true",
			"sudo -n apt-get update -qq",
			"apt-get update -qq DEBIAN_FRONTEND=",
			"sudo -n env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq strace",
			"apt-get install -y -qq strace DEBIAN_FRONTEND=noninteractive",
		]);
	});

	it("not root, stops when sudo asks for a password", () => {
		const run = runStep({ uid: 1000, commands: everything.filter((command) => command !== "strace"), sudo: "refused" });
		expect(run.status).toBe(1);
		expect(run.calls).toEqual(["sudo -n true"]);
		expect(run.stderr).toContain("sudo apt-get install -y strace");
	});

	it("with PI_CHROMIUM set to an executable, needs no chromium package", () => {
		const run = runStep({ uid: 0, commands: ["tmux", "strace", "ip"], env: { PI_CHROMIUM: "/bin/bash" } });
		expect(run).toMatchObject({ status: 0, stdout: "", stderr: "", calls: [] });
	});

	it("with PI_CHROMIUM pointing at nothing, stops and names it, installing nothing", () => {
		const run = runStep({ uid: 0, commands: ["tmux", "strace", "ip"], env: { PI_CHROMIUM: "/nowhere/chrome" } });
		expect(run.status).toBe(1);
		expect(run.calls).toEqual([]);
		expect(run.stderr).toBe("system-deps: PI_CHROMIUM=/nowhere/chrome is not an executable file.\n");
	});

	it("with PI_TEST_POSTGRES_URL set, asks for no PostgreSQL binaries", () => {
		const run = runStep({ uid: 0, commands: everything, env: { PI_POSTGRES_BIN: "", PI_TEST_POSTGRES_URL: "postgres://u:p@127.0.0.1:5432/db" } });
		expect(run).toMatchObject({ status: 0, stdout: "", calls: [] });
	});

	it("with PI_POSTGRES_BIN pointing at a folder without initdb, stops and names it", () => {
		const run = runStep({ uid: 0, commands: everything, env: { PI_POSTGRES_BIN: "/nowhere" } });
		expect(run.status).toBe(1);
		expect(run.stderr).toBe("system-deps: PI_POSTGRES_BIN=/nowhere has no initdb.\n");
	});

	it("fails when apt-get ran and the command is still missing", () => {
		const run = runStep({ uid: 0, commands: everything.filter((command) => command !== "tmux"), installWorks: false });
		expect(run.status).toBe(1);
		expect(run.stderr).toContain("apt-get install ran, and these are still not found.");
	});
});
