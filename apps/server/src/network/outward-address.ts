import { createSocket, type SocketType } from 'node:dgram';

/**
 * The server's own outward address: the address of the interface its default route leaves by.
 * A UDP socket `connect()`ed to a documentation address (RFC 5737 / RFC 3849: never routed to
 * anyone) makes the kernel choose the route and the source address; `address()` reads it. UDP
 * `connect` sends nothing. IPv4 first, then IPv6; null when neither has a route (no network).
 */
const PROBES: ReadonlyArray<{ type: SocketType; address: string }> = [
  { type: 'udp4', address: '192.0.2.1' },
  { type: 'udp6', address: '2001:db8::1' },
];

function probe(type: SocketType, address: string): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = createSocket(type);
    const done = (value: string | null) => {
      socket.close();
      resolve(value);
    };
    socket.on('error', () => done(null));
    try {
      socket.connect(9, address, () => {
        try {
          const local = socket.address().address;
          done(local === '0.0.0.0' || local === '::' ? null : local);
        } catch {
          done(null);
        }
      });
    } catch {
      done(null);
    }
  });
}

export async function outwardAddress(): Promise<string | null> {
  for (const { type, address } of PROBES) {
    const found = await probe(type, address);
    if (found) return found;
  }
  return null;
}
