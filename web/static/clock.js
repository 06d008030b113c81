/* Tell the trainer the browser's time zone, so that "today" on its pages (the daily challenge,
   the streak, the history) is the player's day, as the daily challenge's own page counts it. */
document.cookie = `crib_utc_offset=${new Date().getTimezoneOffset()}; path=/; max-age=31536000; samesite=lax`;
