// The Camera tab: getUserMedia frames go over a WebSocket to a task in live-stream mode; results
// come back with their timestamps and are drawn over the (mirrored) video. At most MAX_IN_FLIGHT
// frames are unanswered at a time; the server's flow limiter drops what is late.
import { setStatus, showResult } from "./state.js";
import { taskURL } from "./api.js";

const MAX_IN_FLIGHT = 2;
const STALE_MS = 2000; // a frame unanswered this long was dropped (the rate limit sends no reply)

export class Camera {
  constructor({ video, overlay, button }) {
    Object.assign(this, { video, overlay, button });
    this.stream = null;
    this.socket = null;
    button.addEventListener("click", () => (this.stream ? this.stop() : this.start()));
  }

  async start() {
    try {
      setStatus("ready", "Starting the camera…");
      this.stream = await navigator.mediaDevices.getUserMedia({ video: { width: 640, height: 480 }, audio: false });
      this.video.srcObject = this.stream;
      await this.video.play();
      this.button.textContent = "Stop camera";
      this.connect();
    } catch (error) {
      this.stream = null;
      setStatus("error", `Camera: ${error.message}`);
    }
  }

  stop() {
    if (this.socket) this.socket.close();
    this.socket = null;
    if (this.stream) for (const track of this.stream.getTracks()) track.stop();
    this.stream = null;
    this.button.textContent = "Start camera";
  }

  /** New settings or task: a new socket (and so a new task instance) for the running camera. */
  restart() {
    if (this.stream) this.connect();
  }

  connect() {
    if (this.socket) this.socket.close();
    const socket = new WebSocket(taskURL("/live", { socket: true }));
    socket.binaryType = "arraybuffer";
    this.socket = socket;
    const sent = new Map(); // timestamp → when sent
    const grab = document.createElement("canvas");
    // One frame is encoded at a time: toBlob and arrayBuffer complete asynchronously, and two
    // encodes in flight could reach the socket out of order, which live-stream mode refuses.
    let lastTimestamp = 0, encoding = false, done = [], dropped = 0, inference = 0;
    const pump = () => {
      if (this.socket !== socket || socket.readyState > 1) return;
      const now = performance.now();
      for (const [t, at] of sent) if (now - at > STALE_MS) sent.delete(t);
      if (!encoding && socket.readyState === 1 && sent.size < MAX_IN_FLIGHT && this.video.videoWidth > 0) {
        const timestamp = Math.max(lastTimestamp + 1, Math.round(now));
        lastTimestamp = timestamp;
        encoding = true;
        grab.width = this.video.videoWidth;
        grab.height = this.video.videoHeight;
        grab.getContext("2d").drawImage(this.video, 0, 0);
        grab.toBlob(async (blob) => {
          try {
            if (!blob || this.socket !== socket || socket.readyState !== 1) return;
            const image = new Uint8Array(await blob.arrayBuffer());
            const message = new Uint8Array(8 + image.length);
            new DataView(message.buffer).setBigInt64(0, BigInt(timestamp), true);
            message.set(image, 8);
            if (socket.readyState !== 1) return;
            sent.set(timestamp, performance.now());
            socket.send(message);
          } finally {
            encoding = false;
          }
        }, "image/jpeg", 0.85);
      }
      requestAnimationFrame(pump);
    };
    socket.onopen = () => requestAnimationFrame(pump);
    socket.onmessage = (event) => {
      const reply = JSON.parse(event.data);
      for (const t of [...sent.keys()]) if (t <= reply.timestampInMilliseconds) sent.delete(t);
      if (reply.error) {
        setStatus("error", `Frame ${reply.timestampInMilliseconds}: ${reply.error}`);
        return;
      }
      const now = performance.now();
      done = done.filter((t) => now - t < 1000);
      done.push(now);
      dropped = reply.dropped;
      inference = reply.inferenceMs;
      // Setting a canvas's size clears it, even to the same size: only when the video's size changed, or
      // the overlay would stand empty until the result's masks are decoded.
      if (this.overlay.width !== this.video.videoWidth) this.overlay.width = this.video.videoWidth;
      if (this.overlay.height !== this.video.videoHeight) this.overlay.height = this.video.videoHeight;
      showResult(this.overlay, reply.result, true, this.video);
      setStatus("running", `inference ${inference.toFixed(1)} ms · ${done.length} fps processed · ${dropped} dropped`);
    };
    // A refused upgrade's answer is not shown to scripts: the same URL over plain HTTP says why.
    const plainURL = taskURL("/live");
    let failed = false; // the close that follows an error leaves the status line to the error's reason
    socket.onerror = async () => {
      failed = true;
      let reason = "is the server running?";
      try {
        reason = (await (await fetch(plainURL)).json()).error || reason;
      } catch (_) {
        // No answer at all: the server is gone.
      }
      if (this.socket === socket) setStatus("error", `The live socket failed: ${reason}`);
    };
    socket.onclose = (event) => {
      if (this.socket === socket && this.stream && !failed) {
        setStatus("error", `The live socket closed: ${event.reason || event.code}`);
      }
    };
  }
}
