"""CRC-32C (Castagnoli, reflected), as atenia's checkpoint manifests and self-training tables
seal their bytes: the CLI tests use it to write files a damaged or hand-made case needs."""


def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF
