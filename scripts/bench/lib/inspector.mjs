// A full garbage collection in another process, through its inspector (started with
// --inspect=127.0.0.1:PORT): what is still in memory afterwards is really held.
import { WebSocket } from "undici";

export async function collectGarbage(inspectPort) {
  const [target] = await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json();
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  try {
    await new Promise((resolve, reject) => {
      socket.onopen = resolve;
      socket.onerror = () => reject(new Error("inspector connection failed"));
    });
    await new Promise((resolve, reject) => {
      socket.onmessage = (message) => {
        const reply = JSON.parse(String(message.data));
        if (reply.id !== 1) return;
        if (reply.error) reject(new Error(reply.error.message));
        else resolve();
      };
      socket.send(JSON.stringify({ id: 1, method: "HeapProfiler.collectGarbage" }));
    });
  } finally {
    socket.close();
  }
}
