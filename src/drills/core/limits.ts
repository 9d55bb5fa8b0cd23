/** How many runs one `drill run --repeat` may ask for (each on a fresh lab). */
export const MAX_REPEAT = 100;
