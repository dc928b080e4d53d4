// Preloaded (NODE_OPTIONS=--import) into the generators the benchmark runs: any attempt to reach
// the network fails immediately and is reported on stderr as a `NETGUARD:` line, which the harness
// collects. The benchmark must measure local work only, and must not depend on connectivity.
import dns from 'node:dns';
import net from 'node:net';

function report(what) {
  process.stderr.write(`NETGUARD: ${what}\n`);
}

const blocked = () => new Error('network access is blocked by the codegen benchmark (bench/lib/netguard.js)');

net.Socket.prototype.connect = function connect(options) {
  const target =
    typeof options === 'object' && options !== null ? `${options.host ?? options.path ?? ''}:${options.port ?? ''}` : String(options);
  report(`socket connect ${target}`);
  // Fail the way an offline machine would: an 'error' event, not an exception thrown at the caller.
  process.nextTick(() => this.destroy(blocked()));
  return this;
};

const lookup = dns.lookup;
dns.lookup = function guardedLookup(hostname, ...rest) {
  report(`dns lookup ${hostname}`);
  return lookup.call(this, hostname, ...rest);
};

globalThis.fetch = async function guardedFetch(input) {
  report(`fetch ${typeof input === 'string' ? input : (input?.url ?? String(input))}`);
  throw blocked();
};
