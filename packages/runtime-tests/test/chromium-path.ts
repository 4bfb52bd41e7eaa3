import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/**
 * The Chromium the browser tests drive: `PI_CHROMIUM` when set, else the first `chromium` on the
 * PATH (Debian's /usr/bin/chromium), as scripts/system-deps.sh finds it before the tests run.
 * Never a browser that playwright downloads.
 */
export function chromiumPath(): string {
	if (process.env.PI_CHROMIUM) return process.env.PI_CHROMIUM;
	for (const folder of (process.env.PATH ?? "").split(delimiter)) {
		const candidate = join(folder, "chromium");
		try {
			accessSync(candidate, constants.X_OK);
			return candidate;
		} catch {}
	}
	throw new Error("No Chromium: install Debian's chromium (`apt-get install -y chromium`, which `pnpm test` does when run as root), or set PI_CHROMIUM=/path/to/chrome.");
}
