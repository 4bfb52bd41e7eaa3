const parsed = new Map<string, { address?: string; port?: number }>();

/** `server.address` and `server.port` of a model's base URL; nothing for one that does not parse. */
export function serverAddress(baseUrl: string): { address?: string; port?: number } {
	let found = parsed.get(baseUrl);
	if (!found) {
		found = parse(baseUrl);
		// A few base URLs per app; a bound all the same, for apps that make one per request.
		if (parsed.size >= 100) parsed.clear();
		parsed.set(baseUrl, found);
	}
	return found;
}

function parse(baseUrl: string): { address?: string; port?: number } {
	let url: URL;
	try {
		url = new URL(baseUrl);
	} catch {
		return {};
	}
	const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : url.protocol === "http:" ? 80 : undefined;
	// The URL parser keeps IPv6 hosts in brackets; the convention wants the address alone.
	return { address: url.hostname.replace(/^\[(.*)\]$/, "$1"), port };
}
