// The kernel's count of TCP segments sent again (/proc/net/snmp, `Tcp: … RetransSegs`), read
// around a measured run. On loopback nothing is lost: a segment sent again is one whose ACK did
// not come before the sender's timer (the retransmission timeout, at least 200 ms on Linux), and
// the answer it ends waits that long. A row whose p99 sits near that timeout while its req/s holds
// (a few connections stalled, the others served) is told apart from a server that stalls, whose
// stalls delay every connection at once. The count is the network namespace's: the bench's own
// traffic, and whatever else runs in it.
import { readFileSync } from 'node:fs';

/** RetransSegs from the text of /proc/net/snmp; undefined when it has none. */
export function retransSegs(snmp: string): number | undefined {
  const lines = snmp.split('\n').filter((line) => line.startsWith('Tcp:'));
  if (lines.length < 2) return undefined;
  const names = lines[0].trim().split(/\s+/);
  const values = lines[1].trim().split(/\s+/);
  const at = names.indexOf('RetransSegs');
  const value = at > 0 ? Number(values[at]) : NaN;
  return Number.isFinite(value) ? value : undefined;
}

/** RetransSegs now, or undefined where /proc/net/snmp cannot be read (not Linux). */
export function tcpRetransmits(): number | undefined {
  try {
    return retransSegs(readFileSync('/proc/net/snmp', 'utf8'));
  } catch {
    return undefined;
  }
}
