// Integration tests talk to the emulator over loopback; some runs are time-scaled but still take seconds.
jest.setTimeout(60_000);
