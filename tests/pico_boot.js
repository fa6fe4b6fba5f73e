// Boot a Pico flash image in rp2040js and stream its USB serial output to stdout until a given
// text appears (exit 0) or a host-time timeout passes (exit 1). On exit, stderr says how much
// emulated time went by.
// node tests/pico_boot.js BOOTROM FLASH_IMAGE TEXT TIMEOUT_MS
const fs = require('fs');
const { Simulator, USBCDC, ConsoleLogger, LogLevel } = require('rp2040js');

const [bootrom, flash, want, timeoutMs] = process.argv.slice(2);
const sim = new Simulator();
const mcu = sim.rp2040;
mcu.logger = new ConsoleLogger(LogLevel.Error);
const rom = fs.readFileSync(bootrom);
mcu.loadBootrom(new Uint32Array(rom.buffer, rom.byteOffset, rom.length / 4));
mcu.flash.set(fs.readFileSync(flash));
// rp2040js does not model pull-ups: an unpressed button (GPIO 10-15, to ground) is driven high
for (const pin of [10, 11, 12, 13, 14, 15]) mcu.gpio[pin].setInputValue(true);
const cdc = new USBCDC(mcu.usbCtrl);
// USBCDC answers every OUT transfer at once, with no bytes when it has none: the device's USB
// interrupt then fires every few emulated microseconds and takes about half the CPU. A real
// host NAKs until it has data, which costs the device nothing. This script sends nothing, so
// such a transfer is never answered (a runner that sends answers it once it has bytes).
const answerRead = mcu.usbCtrl.onEndpointRead;
mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
  if (endpoint !== cdc.outEndpoint || cdc.txFIFO.itemCount) answerRead(endpoint, size);
};

function finish(status, why) {
  const ms = sim.clock.nanos / 1e6;
  process.stderr.write((why ? why + '\n' : '') + 'emulated ' + ms.toFixed(0) + ' ms\n');
  process.exit(status);
}

let tail = ''; // enough of the output to find `want` across two USB packets
cdc.onSerialData = (data) => {
  const text = Buffer.from(data).toString('latin1');
  process.stdout.write(text);
  tail = (tail + text).slice(-(want.length + text.length));
  if (tail.includes(want)) finish(0);
};
mcu.core.PC = 0x10000000; // the flash's start, where boot2 is
sim.execute();
setTimeout(() => finish(1, 'no ' + want + ' within ' + timeoutMs + ' ms'), Number(timeoutMs));
