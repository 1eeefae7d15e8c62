// Loaded first with `node --import`; error reporting is initialised here (see issue 4).
export {};
