WHO = 'b'
