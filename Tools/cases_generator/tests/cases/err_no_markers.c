inst(NOP, (--)) {
}
