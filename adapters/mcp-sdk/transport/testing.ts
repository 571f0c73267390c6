/** Test support for the virtual link (not part of the package build). */
import { VirtualTransport } from './virtual-transport.js';

/** Every JSON-RPC message sent on a virtual link while `body` runs (the wire, as the SDKs wrote it). */
export async function wireDuring(body: () => Promise<unknown>): Promise<string[]> {
  const wire: string[] = [];
  const send = VirtualTransport.prototype.send;
  VirtualTransport.prototype.send = function (this: VirtualTransport, message, options) {
    wire.push(JSON.stringify(message));
    return send.call(this, message, options);
  };
  try {
    await body();
  } finally {
    VirtualTransport.prototype.send = send;
  }
  return wire;
}
