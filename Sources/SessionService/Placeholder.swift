// Placeholder; replaced as the module lands.
