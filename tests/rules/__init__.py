#: a lower-case clause long enough that a short test note reads as typed in lower case throughout
LOWER_TAIL = " pt resting comfortably on the vent with sats in the 90s and bp stable overnight no acute events"
