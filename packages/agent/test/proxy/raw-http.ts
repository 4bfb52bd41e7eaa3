import { connect, type Socket } from "node:net";

/** What a raw HTTP exchange saw: the status of each response, and whether the server closed. */
export interface RawExchange {
	statuses: number[];
	text: string;
	closedByServer: boolean;
}

/**
 * Opens a TCP connection to `port` on 127.0.0.1, writes `parts` in order (a part `"drop"` closes
 * the connection from the client's side at once), and collects what comes back until the
 * server closes or `until(text)` holds.
 */
export function rawExchange(port: number, parts: readonly (string | Uint8Array | "drop")[], until: (text: string) => boolean = () => false): Promise<RawExchange> {
	return new Promise((resolve) => {
		const socket: Socket = connect(port, "127.0.0.1");
		let text = "";
		let settled = false;
		const done = (closedByServer: boolean) => {
			if (settled) return;
			settled = true;
			socket.destroy();
			resolve({ statuses: [...text.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((match) => Number(match[1])), text, closedByServer });
		};
		socket.on("data", (chunk) => {
			text += chunk.toString("latin1");
			if (until(text)) done(false);
		});
		socket.on("end", () => done(true));
		socket.on("close", () => done(true));
		socket.on("error", () => done(true));
		socket.on("connect", () => {
			for (const part of parts) {
				if (part === "drop") {
					socket.destroy();
					done(false);
					return;
				}
				socket.write(part);
			}
		});
	});
}

/** The head of a POST to /api/stream. */
export function postHead(token: string, headers: Record<string, string | number> = {}): string {
	const lines = [`POST /api/stream HTTP/1.1`, `host: 127.0.0.1`, `authorization: Bearer ${token}`, "content-type: application/json", ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
	return `${lines.join("\r\n")}\r\n\r\n`;
}
