WHO = 'a'
