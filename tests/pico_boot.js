// Boot a Pico flash image in rp2040js and print its USB serial output until a given text
// appears (exit 0) or a host-time timeout passes (exit 1).
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
let out = '';
cdc.onSerialData = (data) => {
  out += Buffer.from(data).toString('latin1');
  if (out.includes(want)) {
    process.stdout.write(out);
    process.exit(0);
  }
};
mcu.core.PC = 0x10000000; // the flash's start, where boot2 is
sim.execute();
setTimeout(() => {
  process.stdout.write(out);
  process.stderr.write('no ' + want + ' within ' + timeoutMs + ' ms\n');
  process.exit(1);
}, Number(timeoutMs));
