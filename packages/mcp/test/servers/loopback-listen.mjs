// Preloaded (`node --import`) into server-everything's own HTTP entry points, which listen on
// every interface at $PORT (default 3001): the tests keep every server on 127.0.0.1, on a port
// the system picks, and read that port from the line printed here.
import net from "node:net";

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
	const callback = typeof args.at(-1) === "function" ? args.pop() : undefined;
	this.once("listening", () => {
		const address = this.address();
		if (address && typeof address === "object") process.stdout.write(`PI_TEST_LISTENING ${address.port}\n`);
	});
	return listen.call(this, 0, "127.0.0.1", callback);
};
